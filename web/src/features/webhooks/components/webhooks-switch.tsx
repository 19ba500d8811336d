import { Alert, Paper, Switch } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { useState } from 'react'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useWebhookActions } from '../api'
import '@mantine/core/styles/Switch.css'

/** The `webhooks` switch of our additions: while off nothing is queued or sent. */
export function WebhooksSwitch({ on }: { on: boolean }) {
  const { t } = useTranslation()
  const { setSwitch } = useWebhookActions()
  const [busy, setBusy] = useState(false)
  const toggle = async (next: boolean) => {
    setBusy(true)
    try {
      await setSwitch(next)
      notify.success(t(next ? 'webhooks.switch.turned_on' : 'webhooks.switch.turned_off'))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(false)
    }
  }
  return (
    <>
      <Paper withBorder radius="md" p="md">
        <Switch
          size="md"
          label={t('webhooks.switch.label')}
          description={t('webhooks.switch.description')}
          checked={on}
          disabled={busy}
          onChange={(e) => toggle(e.currentTarget.checked)}
        />
      </Paper>
      {!on && (
        <Alert color="gray" icon={<IconInfoCircle size={18} aria-hidden />}>
          {t('webhooks.switch.off_hint')}
        </Alert>
      )}
    </>
  )
}
