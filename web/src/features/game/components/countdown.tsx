import { Group, Stack, Text } from '@mantine/core'
import { IconClock } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { formatDuration } from '@/utils/format-date'
import { gameProgress } from '../game-time'
import { ProgressBar } from './progress-bar'

/** Time left in a running game (H:mm:ss), "ended" once over, with the game's progress. */
export function GameCountdown({ start, end, now }: { start: number; end: number; now: number }) {
  const { t } = useTranslation()
  const left = end - now
  const progress = Math.round(gameProgress(start, end, now) * 100)
  return (
    <Stack gap={4}>
      <Group gap={6} wrap="nowrap" justify="flex-end">
        <IconClock size={16} aria-hidden />
        {left > 0 ? (
          <Text
            size="sm"
            role="timer"
            aria-label={t('game.area.time_left_label', { time: formatDuration(left) })}
          >
            {t('game.area.time_left')}{' '}
            <Text span ff="monospace" fw={600}>
              {formatDuration(left)}
            </Text>
          </Text>
        ) : (
          <Text size="sm" fw={600}>
            {t('game.area.ended')}
          </Text>
        )}
      </Group>
      <ProgressBar value={progress} height={4} label={t('game.home.progress', { percent: progress })} />
    </Stack>
  )
}
