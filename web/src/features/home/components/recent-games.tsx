import { gamePhase } from '@engine/game-phase.ts'
import { Badge, Button, Image, Paper, Skeleton, Stack, Text, Title } from '@mantine/core'
import { IconFlag } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { Link } from 'react-router'
import { LoadFailed } from '@/components/load-failed'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type RecentGame, useRecentGames } from '../api'
import classes from './home.module.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Skeleton.css'

const PHASE_COLOR = { upcoming: 'yellow', running: 'teal', ended: 'gray' } as const

function GameCard({ game, now }: { game: RecentGame; now: number }) {
  const { t } = useTranslation()
  const phase = gamePhase(game.start, game.end, now)
  return (
    <li className={classes.gameItem}>
      <Paper component={Link} to={paths.game(game.id)} withBorder radius="md" className={classes.gameCard}>
        <div className={classes.poster}>
          {game.poster ? (
            <Image src={game.poster} alt="" h="100%" w="100%" fit="cover" loading="lazy" />
          ) : (
            <IconFlag size={36} stroke={1.4} aria-hidden className={classes.posterIcon} />
          )}
        </div>
        <Stack gap={4} p="sm">
          <Badge size="sm" variant="light" color={PHASE_COLOR[phase]} tt="none" w="fit-content">
            {t(`post.home.phase.${phase}`)}
          </Badge>
          <Text fw={600} lineClamp={2} className={classes.gameTitle}>
            {game.title}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={new Date(game.start).toISOString()}>{formatDateTime(game.start)}</time>
            {' – '}
            <time dateTime={new Date(game.end).toISOString()}>{formatDateTime(game.end)}</time>
          </Text>
        </Stack>
      </Paper>
    </li>
  )
}

/**
 * The games nearest in time: a column beside the posts on wide screens, a row that scrolls
 * sideways above them on phones.
 */
export function RecentGames() {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useRecentGames()
  const now = Date.now()

  let body: ReactNode
  if (isLoading && !data)
    body = (
      <ul className={classes.games} aria-busy="true" aria-label={t('common.loading')}>
        {[0, 1, 2].map((i) => (
          <li key={i} className={classes.gameItem}>
            <Skeleton height={190} radius="md" />
          </li>
        ))}
      </ul>
    )
  else if (error && !data)
    body = <LoadFailed title={t('post.home.games_failed')} error={error} onRetry={() => mutate()} />
  else if (!data?.length)
    body = (
      <Text c="dimmed" size="sm">
        {t('post.home.no_games')}
      </Text>
    )
  else
    body = (
      <ul className={classes.games}>
        {data.map((game) => (
          <GameCard key={game.id} game={game} now={now} />
        ))}
      </ul>
    )

  return (
    <section aria-labelledby="recent-games" className={classes.gamesSection}>
      <div className={classes.sectionHead}>
        <Title order={2} size="h4" id="recent-games">
          {t('post.home.recent_games')}
        </Title>
        <Button component={Link} to={paths.games} variant="subtle" size="compact-sm">
          {t('post.home.all_games')}
        </Button>
      </div>
      {body}
    </section>
  )
}
