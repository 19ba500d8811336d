import { gamePhase } from '@engine/game-phase.ts'
import { Badge, Card, Group, Stack, Text, Title } from '@mantine/core'
import { IconCircleCheck, IconFlag, IconUsers } from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatDateTime, rangeArrow } from '@/utils/format-date'
import { type GameSummary, useKnownRegistration } from '../api'
import { durationHours } from '../game-time'
import classes from './game-card.module.css'
import { PhaseBadge } from './phase-badge'
import { teamSizeLabel } from './team-size'
import '@mantine/core/styles/Card.css'

/** The word for a registration, as on the game's own page. */
const JOINED_LABEL = { Accepted: 'joined', Pending: 'pending', Suspended: 'suspended' } as Record<
  string,
  'joined' | 'pending' | 'suspended'
>

/**
 * One game in the list: poster, phase, team size, whether the caller joined (when this browser
 * knows), times and summary; the title links to it.
 */
export function GameCard({ game, now }: { game: GameSummary; now: number }) {
  const { t } = useTranslation()
  const registration = useKnownRegistration(game.id)
  return (
    <Card component="article" withBorder padding={0} className={classes.card}>
      {game.poster ? (
        <img src={game.poster} alt="" className={classes.poster} loading="lazy" />
      ) : (
        <div className={classes.placeholder}>
          <IconFlag size={48} stroke={1.2} aria-hidden />
        </div>
      )}
      <Stack gap="xs" p="md" style={{ flex: 1 }}>
        <Group gap={6}>
          <PhaseBadge phase={gamePhase(game.start, game.end, now)} />
          <Badge color="gray" leftSection={<IconUsers size={12} aria-hidden />}>
            {teamSizeLabel(game.limit)}
          </Badge>
          {registration && (
            <Badge
              color={registration.status === 'Suspended' ? 'red' : 'green'}
              leftSection={<IconCircleCheck size={12} aria-hidden />}
              title={registration.teamName ?? undefined}
            >
              {t(`game.action.${JOINED_LABEL[registration.status]}`)}
            </Badge>
          )}
        </Group>
        <Title order={3} size="h4" lineClamp={2}>
          <Link to={paths.game(game.id)} className={classes.link}>
            {game.title}
          </Link>
        </Title>
        <Text size="sm">
          <time dateTime={new Date(game.start).toISOString()}>{formatDateTime(game.start)}</time>
          {rangeArrow()}
          <time dateTime={new Date(game.end).toISOString()}>{formatDateTime(game.end)}</time>
        </Text>
        <Text size="sm" c="dimmed">
          {t('game.card.duration', { hours: durationHours(game.start, game.end) })}
        </Text>
        {game.summary && (
          <Text size="sm" lineClamp={3}>
            {game.summary}
          </Text>
        )}
      </Stack>
    </Card>
  )
}
