import { Alert, Button, Group, Stack, Text } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { CopyField } from '@/components/copy-field'
import { EditModal } from '@/components/edit-modal'
import { useTranslation } from '@/i18n'

/**
 * The new password of a user, shown this once with a copy button. A click outside does not
 * close it (the password would be lost); the buttons and Escape do.
 */
export function PasswordModal({
  shown,
  onClose,
}: {
  shown: { name: string; value: string } | null
  onClose: () => void
}) {
  const { t } = useTranslation()
  return (
    <EditModal
      opened={shown !== null}
      onClose={onClose}
      closeOnClickOutside={false}
      returnFocus={false}
      size="md"
      title={t('admin.users.password_title', { name: shown?.name ?? '' })}
    >
      {shown && (
        <Stack gap="md">
          <CopyField
            label={t('admin.users.password_label')}
            value={shown.value}
            copyLabel={t('admin.users.password_copy')}
          />
          <Alert color="blue" icon={<IconInfoCircle size={18} aria-hidden />}>
            <Text size="sm">{t('admin.users.password_note', { name: shown.name })}</Text>
          </Alert>
          <Group justify="flex-end">
            <Button onClick={onClose} data-autofocus>
              {t('admin.users.password_done')}
            </Button>
          </Group>
        </Stack>
      )}
    </EditModal>
  )
}
