import { Alert, Paper, Switch } from '@mantine/core'
import { IconInfoCircle } from '@tabler/icons-react'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { useWebhookActions } from '../api'
import '@mantine/core/styles/Switch.css'

/** The `webhooks` switch of our additions: while off nothing is queued or sent. */
export function WebhooksSwitch({ on }: { on: boolean }) {
  const { t } = useTranslation()
  const { setSwitch } = useWebhookActions()
  const { busy, run } = useSubmit()
  const toggle = async (next: boolean) => {
    await run(() => setSwitch(next), {
      success: t(next ? 'webhooks.switch.turned_on' : 'webhooks.switch.turned_off'),
    })
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
