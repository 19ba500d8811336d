import { Group, List, Paper, Stack, Switch, Text, Title } from '@mantine/core'
import { IconCircleCheck, IconCircleDashed } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { type EditChallenge, useEditGame } from '../api'
import { isRunning } from '../categories'
import { isContainerType } from '../flag-rules'
import { canEnable, challengeReadiness } from '../readiness'
import { useEnableChallenge } from '../use-enable-challenge'
import { ContainerCheck } from './container-check'
import '@mantine/core/styles/List.css'
import '@mantine/core/styles/Switch.css'

/**
 * What a challenge still needs before players can have it, and the switch that opens it: on the
 * editor itself, so one screen takes a challenge from new to playable. A container challenge can
 * be checked for real here too.
 */
export function ReadinessPanel({ gameId, challenge }: { gameId: number; challenge: EditChallenge }) {
  const { t } = useTranslation()
  const { data: game } = useEditGame(gameId)
  const { toggle, busy } = useEnableChallenge(gameId, challenge, game ? isRunning(game) : false)
  const items = challengeReadiness(challenge)
  const ready = canEnable(items)
  const status = challenge.isEnabled
    ? t('admin.challenge.ready.status_open')
    : ready
      ? t('admin.challenge.ready.status_ready')
      : t('admin.challenge.ready.status_missing')

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="readiness-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm" align="flex-start">
          <Title order={2} size="h4" id="readiness-title">
            {t('admin.challenge.ready.title')}
          </Title>
          <Switch
            size="md"
            label={t('admin.challenge.ready.switch')}
            checked={challenge.isEnabled}
            // A challenge already open can always be closed; one not ready cannot be opened.
            disabled={busy || (!challenge.isEnabled && !ready)}
            onChange={(e) => toggle(e.currentTarget.checked)}
          />
        </Group>
        <List spacing={4} size="sm" center>
          {items.map((item) => (
            <List.Item
              key={item.key}
              icon={
                item.done ? (
                  <IconCircleCheck size={18} color="var(--mantine-color-teal-text)" aria-hidden />
                ) : (
                  <IconCircleDashed
                    size={18}
                    color={item.required ? 'var(--mantine-color-red-text)' : 'var(--mantine-color-dimmed)'}
                    aria-hidden
                  />
                )
              }
            >
              {t(`admin.challenge.ready.${item.key}`)}
              {' — '}
              {item.done
                ? t('admin.challenge.ready.done')
                : item.required
                  ? t('admin.challenge.ready.missing_required')
                  : t('admin.challenge.ready.missing_optional')}
            </List.Item>
          ))}
        </List>
        <Text size="sm" role="status">
          {status}
        </Text>
        {isContainerType(challenge.type) && challenge.containerImage?.trim() && (
          <ContainerCheck gameId={gameId} challengeId={challenge.id} />
        )}
      </Stack>
    </Paper>
  )
}
