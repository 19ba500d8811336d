import { Button, Stack, Text } from '@mantine/core'
import { IconMailCheck } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from '@/i18n'
import { errorMessage } from '@/utils/error-message'
import { notify } from '@/utils/notify'
import { InvalidLink } from './invalid-link'

/**
 * The page behind a mailed confirmation link: the address it is for and one button. When the
 * server refuses the link, the page says it is invalid or expired, with the server's reason.
 */
export function LinkConfirm({
  message,
  action,
  label,
  pending,
  retry,
}: {
  message: string
  action: () => Promise<void>
  label: string
  pending: string
  retry?: { to: string; label: string }
}) {
  const { t } = useTranslation()
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)

  if (failure !== null) return <InvalidLink reason={failure} retry={retry} />

  const run = async () => {
    setBusy(true)
    try {
      await notify.pending(action(), { pending })
    } catch (err) {
      setFailure(errorMessage(err, t('account.link.invalid_hint')))
      setBusy(false)
    }
  }

  return (
    <Stack gap="lg" align="center">
      <IconMailCheck size={48} stroke={1.4} aria-hidden />
      <Text ta="center" style={{ overflowWrap: 'anywhere' }}>
        {message}
      </Text>
      <Button onClick={run} loading={busy} fullWidth>
        {label}
      </Button>
    </Stack>
  )
}
