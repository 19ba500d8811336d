import { Alert, Anchor, Stack } from '@mantine/core'
import { IconLinkOff } from '@tabler/icons-react'
import { Link } from 'react-router'
import { useTranslation } from '@/i18n'

/** A mailed link that is broken, used or expired, and where to go instead. */
export function InvalidLink({ reason, retry }: { reason?: string; retry?: { to: string; label: string } }) {
  const { t } = useTranslation()
  return (
    <Stack gap="md">
      <Alert color="red" icon={<IconLinkOff size={18} aria-hidden />} title={t('account.link.invalid')}>
        {reason ?? t('account.link.invalid_hint')}
      </Alert>
      {retry && (
        <Anchor component={Link} to={retry.to} ta="center" size="sm">
          {retry.label}
        </Anchor>
      )}
    </Stack>
  )
}
