import { ActionIcon, Code, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { useClipboard } from '@mantine/hooks'
import { IconCheck, IconCopy } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import type { GameDetails } from '../api'

function Stat({ label, value }: { label: string; value: string | number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="lg" style={{ fontVariantNumeric: 'tabular-nums' }}>
        {value}
      </Text>
    </div>
  )
}

/** My team in this game: name, division, rank, score, solves, and the team token to copy. */
export function TeamPanel({ details }: { details: GameDetails }) {
  const { t } = useTranslation()
  const clipboard = useClipboard({ timeout: 2000 })
  const rank = details.rank
  const ranked = rank && rank.rank > 0
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="team-panel-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Title order={2} size="h4" id="team-panel-title" style={{ overflowWrap: 'anywhere' }}>
            {rank?.name || t('challenge.team.title')}
          </Title>
          {rank?.division && (
            <Text size="xs" fw={600} c="dimmed" style={{ flexShrink: 0 }}>
              {rank.division}
            </Text>
          )}
        </Group>
        <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, minmax(0, 1fr))', gap: 8 }}>
          <Stat label={t('challenge.team.rank')} value={ranked ? `#${rank.rank}` : '—'} />
          <Stat label={t('challenge.team.score')} value={rank?.score ?? 0} />
          <Stat
            label={t('challenge.team.solved')}
            value={`${rank?.solvedCount ?? 0}/${details.challengeCount}`}
          />
        </div>
        {ranked && rank.divisionRank ? (
          <Text size="sm" c="dimmed">
            {t('challenge.team.division_rank', { rank: rank.divisionRank, division: rank.division })}
          </Text>
        ) : null}
        {!ranked && (
          <Text size="sm" c="dimmed">
            {t('challenge.team.not_ranked')}
          </Text>
        )}
        <div>
          <Text size="xs" c="dimmed" id="team-token-label">
            {t('challenge.team.token')}
          </Text>
          <Group gap={4} wrap="nowrap">
            <Code
              aria-labelledby="team-token-label"
              style={{
                flex: 1,
                minWidth: 0,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
                whiteSpace: 'nowrap',
              }}
            >
              {details.teamToken}
            </Code>
            <ActionIcon
              variant="subtle"
              color={clipboard.copied ? 'teal' : 'gray'}
              aria-label={t('challenge.team.copy_token')}
              title={t('challenge.team.copy_token')}
              onClick={() => clipboard.copy(details.teamToken)}
            >
              {clipboard.copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
            </ActionIcon>
          </Group>
          <Text size="xs" aria-live="polite" c="teal">
            {clipboard.copied ? t('common.button.copied') : ''}
          </Text>
        </div>
      </Stack>
    </Paper>
  )
}
