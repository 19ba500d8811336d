import { Alert, Button, Stack } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { errorMessage } from '@/utils/error-message'

/** A view whose data could not be loaded: what failed, the server's reason, and a retry. */
export function LoadFailed({
  title,
  error,
  onRetry,
}: {
  /** What could not be loaded ("Could not load the scoreboard"). */
  title: string
  error: unknown
  onRetry?: () => void
}) {
  const { t } = useTranslation()
  return (
    <Alert color="red" icon={<IconAlertTriangle size={18} aria-hidden />} title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        {errorMessage(error, t('common.error.unknown'))}
        {onRetry && (
          <Button size="xs" variant="light" color="red" onClick={onRetry}>
            {t('common.button.retry')}
          </Button>
        )}
      </Stack>
    </Alert>
  )
}
