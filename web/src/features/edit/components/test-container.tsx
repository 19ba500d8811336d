import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconAlertTriangle, IconBox, IconPlayerPlay, IconTrash } from '@tabler/icons-react'
import { useId, useState } from 'react'
import { CopyField } from '@/components/copy-field'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { notify } from '@/utils/notify'
import { type EditChallenge, useTestContainerActions } from '../api'

/**
 * The organisers' own container of a challenge, to try it before teams do: start (from the saved
 * settings), its entry and stop time, destroy. A failure stays on screen with the engine's
 * message (a bad image name, an unreachable engine), which the server gives admins verbatim.
 */
export function TestContainer({
  gameId,
  challenge,
  unsaved,
}: {
  gameId: number
  challenge: EditChallenge
  /** The form differs from the saved challenge, which is what the container is started from. */
  unsaved: boolean
}) {
  const { t } = useTranslation()
  const titleId = useId()
  const { start, destroy } = useTestContainerActions(gameId, challenge.id)
  const [busy, setBusy] = useState<'start' | 'destroy' | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  const running = challenge.testContainer

  const run = async (kind: 'start' | 'destroy', action: () => Promise<unknown>) => {
    setBusy(kind)
    setFailure(null)
    try {
      await action()
    } catch (err) {
      setFailure((err as { title?: string }).title ?? t('common.error.unknown'))
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Group gap={6} wrap="nowrap">
          <IconBox size={18} aria-hidden />
          <Title order={3} size="h6" id={titleId}>
            {t('admin.challenge.test_container')}
          </Title>
        </Group>
        {running ? (
          <>
            <CopyField
              label={t('admin.challenge.test_container_entry')}
              value={running.entry}
              copyLabel={t('admin.challenge.test_container_copy')}
            />
            <Text size="sm" c="dimmed">
              {t('admin.challenge.test_container_stops', { time: formatDateTime(running.expectStopAt) })}
            </Text>
          </>
        ) : (
          <Text size="sm" c="dimmed">
            {t('admin.challenge.test_container_hint')}
            {unsaved && ` ${t('admin.challenge.test_container_unsaved')}`}
          </Text>
        )}
        {failure && (
          <Alert
            color="red"
            variant="light"
            icon={<IconAlertTriangle aria-hidden />}
            title={t('admin.challenge.test_container_failed')}
            role="alert"
            style={{ overflowWrap: 'anywhere' }}
          >
            {failure}
          </Alert>
        )}
        <Group gap="sm">
          {running ? (
            <Button
              variant="light"
              color="red"
              loading={busy === 'destroy'}
              onClick={() => run('destroy', destroy)}
              leftSection={<IconTrash size={16} aria-hidden />}
            >
              {t('admin.challenge.test_container_destroy')}
            </Button>
          ) : (
            <Button
              variant="light"
              loading={busy === 'start'}
              onClick={() => run('start', start)}
              leftSection={<IconPlayerPlay size={16} aria-hidden />}
            >
              {t('admin.challenge.test_container_start')}
            </Button>
          )}
          {busy === 'start' && (
            <Text size="sm" c="dimmed" aria-live="polite">
              {t('admin.challenge.test_container_starting')}
            </Text>
          )}
        </Group>
      </Stack>
    </Paper>
  )
}
