import { Alert, Button, Code, Group, Stack, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { CopyField } from '@/components/copy-field'
import { EditModal } from '@/components/edit-modal'
import { useTranslation } from '@/i18n'

/**
 * The one showing of an endpoint's signing secret, with how receivers check it. A click outside
 * does not close it (the secret would be gone); the close button and Escape do.
 */
export function SecretModal({
  shown,
  onClose,
}: {
  shown: { secret: string; url: string } | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <EditModal
      opened={shown !== null}
      onClose={onClose}
      closeOnClickOutside={false}
      title={t('webhooks.secret.title')}
    >
      {shown && (
        <Stack gap="md">
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {shown.url}
          </Text>
          <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {t('webhooks.secret.warning')}
          </Alert>
          <CopyField
            label={t('webhooks.secret.label')}
            value={shown.secret}
            copyLabel={t('webhooks.secret.copy')}
          />
          <div>
            <Text size="sm">{t('webhooks.secret.how')}</Text>
            <Code block mt={6} style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
              {
                'X-Pennant-Timestamp: <unix seconds>\nX-Pennant-Signature: sha256=hex(HMAC-SHA256(secret, timestamp + "." + body))'
              }
            </Code>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('webhooks.secret.done')}</Button>
          </Group>
        </Stack>
      )}
    </EditModal>
  )
}
