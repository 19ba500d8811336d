import { Group, Paper, Text, UnstyledButton } from '@mantine/core'
import { IconUsers } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import type { ScoreboardItem } from '../api'
import { TeamStats } from './team-stats'

/** My team's line of the board, above it: rank, score, solves; opens the team's solves. */
export function MyTeamCard({
  team,
  challengeCount,
  onOpen,
}: {
  team: ScoreboardItem
  challengeCount: number
  onOpen: (team: ScoreboardItem) => void
}) {
  const { t } = useTranslation()
  return (
    <Paper
      withBorder
      radius="md"
      p="sm"
      style={{ borderColor: 'var(--mantine-color-teal-filled)' }}
      component="section"
      aria-label={t('game.scoreboard.your_team')}
    >
      <Group justify="space-between" gap="sm">
        <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
          <IconUsers size={20} aria-hidden style={{ flexShrink: 0 }} />
          <div style={{ minWidth: 0 }}>
            <Text size="xs" c="dimmed">
              {t('game.scoreboard.your_team')}
            </Text>
            <UnstyledButton onClick={() => onOpen(team)} fw={700} style={{ overflowWrap: 'anywhere' }}>
              {team.name}
            </UnstyledButton>
          </div>
        </Group>
        <TeamStats team={team} challengeCount={challengeCount} />
      </Group>
    </Paper>
  )
}
