import { Group, Text } from '@mantine/core'
import { useTranslation } from '@/i18n'
import type { ScoreboardItem } from '../api'

/** A team's rank, score and solved count, labelled; shared by my-team card and team dialog. */
export function TeamStats({ team, challengeCount }: { team: ScoreboardItem; challengeCount: number }) {
  const { t } = useTranslation()
  const stats = [
    [t('game.scoreboard.rank'), `#${team.rank}`],
    [t('game.scoreboard.score'), String(team.score)],
    [t('game.scoreboard.solved'), `${team.solvedCount}/${challengeCount}`],
  ] as const
  return (
    <Group gap="lg">
      {stats.map(([label, value]) => (
        <div key={label}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700}>{value}</Text>
        </div>
      ))}
    </Group>
  )
}
