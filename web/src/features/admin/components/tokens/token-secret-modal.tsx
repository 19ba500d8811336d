import { Alert, Button, Code, Group, Input, Stack, Text } from '@mantine/core'
import { IconAlertTriangle } from '@tabler/icons-react'
import { useId } from 'react'
import { CopyButton } from '@/components/copy-button'
import { CopyField } from '@/components/copy-field'
import { EditModal } from '@/components/edit-modal'
import { useTranslation } from '@/i18n'
import { exampleCommand } from '../../token-form'

/**
 * The one and only showing of a new token, with how to use it. A click outside does not close
 * it: the secret would be gone; the close button and Escape do, on purpose.
 */
export function TokenSecretModal({
  created,
  onClose,
}: {
  created: { token: string; name: string } | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  const exampleLabel = useId()
  const example = created ? exampleCommand(created.token, location.origin) : ''
  return (
    <EditModal
      opened={created !== null}
      onClose={onClose}
      closeOnClickOutside={false}
      title={t('admin.tokens.secret_title', { name: created?.name ?? '' })}
    >
      {created && (
        <Stack gap="md">
          <Alert color="yellow" icon={<IconAlertTriangle size={18} aria-hidden />} role="alert">
            {t('admin.tokens.secret_warning')}
          </Alert>
          <CopyField
            label={t('admin.tokens.secret_label')}
            value={created.token}
            copyLabel={t('admin.tokens.copy')}
          />
          <div>
            <Input.Label component="div" id={exampleLabel}>
              {t('admin.tokens.example_label')}
            </Input.Label>
            <Group gap={4} wrap="nowrap" align="flex-start">
              <Code
                block
                aria-labelledby={exampleLabel}
                style={{ flex: 1, minWidth: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}
              >
                {example}
              </Code>
              <CopyButton value={example} label={t('admin.tokens.copy_example')} />
            </Group>
            <Text size="xs" c="dimmed" mt={4}>
              {t('admin.tokens.example_hint')}
            </Text>
          </div>
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('admin.tokens.secret_done')}</Button>
          </Group>
        </Stack>
      )}
    </EditModal>
  )
}
