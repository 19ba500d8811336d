import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core'
import { IconList, IconSend, IconWebhook } from '@tabler/icons-react'
import { useState } from 'react'
import { confirm } from '@/components/confirm'
import { RecordList } from '@/components/record-list'
import { DeleteAction, EditAction } from '@/components/row-actions'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useWebhookActions, useWebhooks } from '../api'
import type { Webhook } from '../webhook-form'
import { DeliveryLog } from './delivery-log'
import { SecretModal } from './secret-modal'
import { WebhookModal } from './webhook-modal'
import classes from './webhooks.module.css'
import '@mantine/core/styles/Badge.css'

function WebhookItem({
  webhook,
  onEdit,
  onLog,
}: {
  webhook: Webhook
  onEdit: () => void
  onLog: () => void
}) {
  const { t } = useTranslation()
  const actions = useWebhookActions()
  const [busy, setBusy] = useState<'test' | 'delete' | null>(null)
  const url = webhook.url

  const test = async () => {
    setBusy('test')
    try {
      const d = await actions.test(webhook.id)
      if (d.status === 'delivered') notify.success(t('webhooks.test_ok', { code: d.lastStatusCode ?? '' }))
      else
        notify.error(
          new Error(d.lastError ?? t('webhooks.test_code', { code: d.lastStatusCode ?? '' })),
          t('webhooks.test_failed'),
        )
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const remove = async () => {
    const ok = await confirm({
      title: t('webhooks.delete'),
      message: t('webhooks.delete_confirm', { url }),
      confirmLabel: t('webhooks.delete'),
      danger: true,
    })
    if (!ok) return
    setBusy('delete')
    try {
      await actions.remove(webhook.id)
      notify.success(t('webhooks.deleted'))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Paper component="li" withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={6} style={{ minWidth: 0, flex: '1 1 16rem' }}>
            <Text className={classes.url} fw={600} component="h2" m={0}>
              {url}
            </Text>
            <Group gap={6}>
              <Badge variant="outline">{t(`webhooks.format.${webhook.format}`)}</Badge>
              <Badge color={webhook.enabled ? 'teal' : 'gray'} variant="light">
                {t(webhook.enabled ? 'webhooks.state.enabled' : 'webhooks.state.paused')}
              </Badge>
              <Badge color="grape" variant="light" style={{ textTransform: 'none' }}>
                {webhook.gameId === null
                  ? t('webhooks.all_games')
                  : (webhook.gameTitle ?? `#${webhook.gameId}`)}
              </Badge>
            </Group>
          </Stack>
          <Group gap={4} wrap="wrap">
            <Button
              size="xs"
              variant="light"
              loading={busy === 'test'}
              leftSection={<IconSend size={14} aria-hidden />}
              onClick={test}
              aria-label={t('webhooks.test_named', { url })}
            >
              {t('webhooks.test')}
            </Button>
            <Button
              size="xs"
              variant="light"
              color="gray"
              leftSection={<IconList size={14} aria-hidden />}
              onClick={onLog}
              aria-label={t('webhooks.log_named', { url })}
            >
              {t('webhooks.log_button')}
            </Button>
            <EditAction
              label={t('webhooks.edit_named', { url })}
              title={t('webhooks.edit')}
              onClick={onEdit}
            />
            <DeleteAction
              label={t('webhooks.delete_named', { url })}
              title={t('webhooks.delete')}
              onClick={remove}
              loading={busy === 'delete'}
            />
          </Group>
        </Group>
        <div>
          <Text size="xs" c="dimmed" id={`events-${webhook.id}`}>
            {t('webhooks.events_label')}
          </Text>
          <ul className={classes.chips} aria-labelledby={`events-${webhook.id}`}>
            {webhook.events.map((e) => (
              <Badge key={e} component="li" variant="light" color="blue" style={{ textTransform: 'none' }}>
                {t(`webhooks.event.${e}`)}
              </Badge>
            ))}
          </ul>
        </div>
      </Stack>
    </Paper>
  )
}

/** The endpoints, with add / edit (secret shown once), test, delivery log and delete. */
export function WebhookList() {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useWebhooks(true)
  const [editing, setEditing] = useState<Webhook | null>(null)
  const [formOpen, setFormOpen] = useState(false)
  const [secret, setSecret] = useState<{ secret: string; url: string } | null>(null)
  const [logOf, setLogOf] = useState<Webhook | null>(null)
  const hooks = data ?? []
  const open = (w: Webhook | null) => {
    setEditing(w)
    setFormOpen(true)
  }

  return (
    <Stack gap="sm">
      <RecordList
        data={data}
        isLoading={isLoading}
        error={error}
        onRetry={() => mutate()}
        count={hooks.length}
        label={t('webhooks.list_label')}
        empty={{ icon: IconWebhook, title: t('webhooks.none'), description: t('webhooks.none_hint') }}
        add={{ label: t('webhooks.new'), onClick: () => open(null) }}
      >
        {hooks.map((w) => (
          <WebhookItem key={w.id} webhook={w} onEdit={() => open(w)} onLog={() => setLogOf(w)} />
        ))}
      </RecordList>
      <WebhookModal
        opened={formOpen}
        editing={editing}
        onClose={() => setFormOpen(false)}
        onSecret={(s, url) => setSecret({ secret: s, url })}
      />
      <SecretModal shown={secret} onClose={() => setSecret(null)} />
      <DeliveryLog webhook={logOf} onClose={() => setLogOf(null)} />
    </Stack>
  )
}
