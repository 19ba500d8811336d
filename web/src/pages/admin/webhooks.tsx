import { Center, Loader, Stack, Text, Title } from '@mantine/core'
import { LoadFailed } from '@/components/load-failed'
import { usePageTitle } from '@/features/info/use-page-title'
import { useWebhooksSwitch } from '@/features/webhooks/api'
import { WebhookList } from '@/features/webhooks/components/webhook-list'
import { WebhooksSwitch } from '@/features/webhooks/components/webhooks-switch'
import { useTranslation } from '@/i18n'

/** `/admin/webhooks`: endpoints that hear of bloods, notices, game start and end, failed containers. */
export default function AdminWebhooksPage() {
  const { t } = useTranslation()
  usePageTitle(t('webhooks.title'))
  const features = useWebhooksSwitch()
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          {t('webhooks.title')}
        </Title>
        <Text c="dimmed" mt={4} maw={760}>
          {t('webhooks.intro')}
        </Text>
      </div>
      {features.error && !features.data ? (
        <LoadFailed
          title={t('admin.state.load_failed')}
          error={features.error}
          onRetry={() => features.mutate()}
        />
      ) : !features.data ? (
        <Center mih={120}>
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : (
        <>
          <WebhooksSwitch on={features.data.webhooks} />
          {features.data.webhooks && <WebhookList />}
        </>
      )}
    </Stack>
  )
}
