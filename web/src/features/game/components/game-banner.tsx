import { gamePhase } from '@engine/game-phase.ts'
import { Badge, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconCalendar, IconEyeOff, IconFlag, IconUsers } from '@tabler/icons-react'
import type { ReactNode } from 'react'
import { useTranslation } from '@/i18n'
import { formatDateTime, rangeArrow } from '@/utils/format-date'
import type { GameInfo } from '../api'
import { gameProgress } from '../game-time'
import classes from './game-banner.module.css'
import { PhaseBadge } from './phase-badge'
import { ProgressBar } from './progress-bar'
import { teamSizeLabel } from './team-size'
import '@mantine/core/styles/Badge.css'

/** The top of a game's home: phase, title, team count, times, progress and the actions. */
export function GameBanner({ game, now, children }: { game: GameInfo; now: number; children: ReactNode }) {
  const { t } = useTranslation()
  const phase = gamePhase(game.start, game.end, now)
  const progress = Math.round(gameProgress(game.start, game.end, now) * 100)
  return (
    <Paper withBorder radius="md" className={classes.banner}>
      <Stack gap="sm" p={{ base: 'md', sm: 'xl' }}>
        <Group gap={6}>
          <PhaseBadge phase={phase} />
          <Badge color="gray" leftSection={<IconUsers size={12} aria-hidden />}>
            {teamSizeLabel(game.limit)}
          </Badge>
          {game.hidden && (
            <Badge color="orange" leftSection={<IconEyeOff size={12} aria-hidden />}>
              {t('game.home.hidden')}
            </Badge>
          )}
          {game.practiceMode && phase === 'ended' && <Badge color="grape">{t('game.home.practice')}</Badge>}
        </Group>
        <Title order={1}>{game.title}</Title>
        {game.summary && <Text c="dimmed">{game.summary}</Text>}
        <Text size="sm">
          {t('game.home.team_count', { count: game.teamCount })}
          {game.teamName && game.status !== 'Unsubmitted' && (
            <>
              {' · '}
              {t('game.home.playing_as', { team: game.teamName })}
              {game.division ? ` (${game.division})` : ''}
            </>
          )}
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <IconCalendar size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
          <Text size="sm">
            <time dateTime={new Date(game.start).toISOString()}>
              {formatDateTime(game.start, { dateStyle: 'long' })}
            </time>
            {rangeArrow()}
            <time dateTime={new Date(game.end).toISOString()}>
              {formatDateTime(game.end, { dateStyle: 'long' })}
            </time>
          </Text>
        </Group>
        {phase === 'running' && (
          <ProgressBar value={progress} label={t('game.home.progress', { percent: progress })} />
        )}
        {children}
      </Stack>
      <div className={classes.media}>
        {game.poster ? (
          <img src={game.poster} alt="" className={classes.poster} />
        ) : (
          <div className={`${classes.placeholder} ${classes.poster}`}>
            <IconFlag size={64} stroke={1.2} aria-hidden />
          </div>
        )}
      </div>
    </Paper>
  )
}
