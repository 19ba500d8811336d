import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconMailbox, IconRefresh } from '@tabler/icons-react'
import { DataState } from '@/components/data-state'
import { EditModal } from '@/components/edit-modal'
import records from '@/components/record-list.module.css'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { useDeliveries, useWebhookActions } from '../api'
import { type Delivery, STATUS_COLOR, type Webhook } from '../webhook-form'
import classes from './webhooks.module.css'
import '@mantine/core/styles/Badge.css'

function DeliveryItem({ delivery, onRetried }: { delivery: Delivery; onRetried: () => void }) {
  const { t } = useTranslation()
  const { retry } = useWebhookActions()
  const { busy, run } = useSubmit()
  const d = delivery
  const event = d.event === 'Test' ? t('webhooks.event.Test') : t(`webhooks.event.${d.event}`)

  const resend = async () => {
    const done = await run(() => retry(d.id), { success: t('webhooks.log.retried') })
    if (!done) return
    onRetried()
  }

  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Group gap="xs" style={{ minWidth: 0 }}>
            <Title order={3} size="h6">
              {event}
            </Title>
            <Badge color={STATUS_COLOR[d.status]} variant="light">
              {t(`webhooks.log.status.${d.status}`)}
            </Badge>
          </Group>
          {d.status !== 'pending' && (
            <Button
              size="xs"
              variant="light"
              loading={busy}
              leftSection={<IconRefresh size={14} aria-hidden />}
              onClick={resend}
              aria-label={t('webhooks.log.retry_named', { id: d.id })}
            >
              {t('webhooks.log.retry')}
            </Button>
          )}
        </Group>
        <dl className={records.facts}>
          <div>
            <dt>{t('webhooks.log.created')}</dt>
            <dd>{formatDateTime(d.createdAt)}</dd>
          </div>
          <div>
            <dt>{t('webhooks.log.attempts')}</dt>
            <dd>{d.attempts}</dd>
          </div>
          <div>
            <dt>{t('webhooks.log.answer_code')}</dt>
            <dd>{d.lastStatusCode ?? t('webhooks.log.no_answer')}</dd>
          </div>
          <div>
            <dt>{d.status === 'pending' ? t('webhooks.log.next') : t('webhooks.log.delivered')}</dt>
            <dd>
              {d.status === 'pending' && d.nextAttemptAt !== null
                ? formatDateTime(d.nextAttemptAt)
                : d.deliveredAt !== null
                  ? formatDateTime(d.deliveredAt)
                  : '—'}
            </dd>
          </div>
        </dl>
        {d.lastError && (
          <Text size="sm" c="red" style={{ overflowWrap: 'anywhere' }}>
            {t('webhooks.log.error', { error: d.lastError })}
          </Text>
        )}
        {d.lastResponse && (
          <div>
            <Text size="xs" c="dimmed">
              {t('webhooks.log.answer')}
            </Text>
            <Code block className={classes.answer}>
              {d.lastResponse}
            </Code>
          </div>
        )}
      </Stack>
    </Paper>
  )
}

/** An endpoint's deliveries, newest first, refreshed while open; failed ones can be sent again. */
export function DeliveryLog({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useDeliveries(webhook?.id ?? null)
  const list = data?.data ?? []
  return (
    <EditModal opened={webhook !== null} onClose={onClose} title={t('webhooks.log.title')} size="xl">
      {webhook && (
        <Stack gap="sm">
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {webhook.url}
          </Text>
          <DataState
            loading={isLoading && !data}
            error={data ? undefined : error}
            onRetry={() => mutate()}
            isEmpty={list.length === 0}
            empty={{
              icon: IconMailbox,
              title: t('webhooks.log.none'),
              description: t('webhooks.log.none_hint'),
            }}
          >
            <ul className={records.list} aria-label={t('webhooks.log.list_label')}>
              {list.map((d) => (
                <DeliveryItem key={d.id} delivery={d} onRetried={() => mutate()} />
              ))}
            </ul>
            {data && data.total > list.length && (
              <Text size="xs" c="dimmed">
                {t('webhooks.log.more', { shown: list.length, total: data.total })}
              </Text>
            )}
          </DataState>
        </Stack>
      )}
    </EditModal>
  )
}
