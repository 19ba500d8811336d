import { Button, Code, Group, Modal, Stack, Text } from '@mantine/core'
import { IconFileOff, IconRefresh } from '@tabler/icons-react'
import { DataState } from '@/components/data-state'
import { useTranslation } from '@/i18n'
import { LOG_LINES, useInstanceLogs } from '../api'

/**
 * A running container's last lines of output (stdout and stderr as it wrote them), for
 * diagnosing a challenge during the contest; read again on request, not on a timer.
 */
export function InstanceLogs({
  containerGuid,
  title,
  onClose,
}: {
  containerGuid: string
  title: string
  onClose: () => void
}) {
  const { t } = useTranslation()
  const { data, error, isLoading, isValidating, mutate } = useInstanceLogs(containerGuid)
  const lines = data?.lines ?? []

  return (
    <Modal opened onClose={onClose} title={title} size="xl">
      <Stack gap="sm">
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed">
            {t('admin.instances.logs_hint', { lines: LOG_LINES })}
          </Text>
          <Button
            size="xs"
            variant="light"
            loading={isValidating}
            onClick={() => mutate()}
            leftSection={<IconRefresh size={16} aria-hidden />}
          >
            {t('admin.instances.logs_refresh')}
          </Button>
        </Group>
        <DataState
          loading={isLoading && !data}
          error={data ? undefined : error}
          onRetry={() => mutate()}
          isEmpty={lines.length === 0}
          empty={{ icon: IconFileOff, title: t('admin.instances.logs_empty') }}
        >
          <Code
            block
            tabIndex={0}
            aria-label={t('admin.instances.logs_output')}
            style={{ maxHeight: '60vh', overflow: 'auto', whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
          >
            {lines.join('\n')}
          </Code>
        </DataState>
      </Stack>
    </Modal>
  )
}
