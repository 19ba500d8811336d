import { Stack, Title } from '@mantine/core'
import { DataState } from '@/components/data-state'
import { ContainerStatusBanner } from '@/features/admin/components/container-status-banner'
import { ExtensionsSection } from '@/features/admin/components/settings/extensions-section'
import { SettingsEditor } from '@/features/admin/components/settings/settings-editor'
import { useAdminConfig } from '@/features/admin/settings-api'
import { useSettled } from '@/features/edit/use-settled'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/settings`: whether containers can run, every platform setting, then our additions' switches. */
export default function AdminSettingsPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.settings.title'))
  const result = useAdminConfig()
  const { data, error, mutate } = result
  // The form starts from freshly fetched settings, never from the copy kept between visits.
  const settled = useSettled(result)
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.settings.title')}
      </Title>
      <ContainerStatusBanner />
      <DataState loading={!settled && !error} error={settled ? undefined : error} onRetry={() => mutate()}>
        {settled && data && <SettingsEditor config={data} reload={() => mutate()} />}
      </DataState>
      <ExtensionsSection />
    </Stack>
  )
}
