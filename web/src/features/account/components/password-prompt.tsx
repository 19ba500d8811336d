import { Alert, Button, Group, Text } from '@mantine/core'
import { IconKey } from '@tabler/icons-react'
import { Link, useLocation } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { useUser } from '../api'

/**
 * Asks a user whose password the platform chose (the first admin's, printed at set-up, or one
 * an admin reset) to pick their own; gone once they have.
 */
export function PasswordPrompt() {
  const { t } = useTranslation()
  const { user } = useUser()
  const { pathname } = useLocation()
  if (!user?.passwordChangeRequired) return null
  const onProfile = pathname.toLowerCase() === paths.account.profile
  return (
    <Alert color="yellow" icon={<IconKey aria-hidden />} title={t('account.password_prompt.title')} mb="md">
      <Group justify="space-between" gap="sm">
        <Text size="sm">{t('account.password_prompt.body')}</Text>
        {!onProfile && (
          <Button component={Link} to={paths.account.profile} size="xs" variant="filled" color="yellow">
            {t('account.password_prompt.action')}
          </Button>
        )}
      </Group>
    </Alert>
  )
}
