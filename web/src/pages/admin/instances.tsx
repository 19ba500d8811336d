import { Stack, Title } from '@mantine/core'
import { ContainerStatusBanner } from '@/features/admin/components/container-status-banner'
import { InstanceList } from '@/features/admin/components/instance-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/instances`: the container engine's state and every running team container. */
export default function AdminInstancesPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.instances.title'))
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {t('admin.instances.title')}
      </Title>
      <ContainerStatusBanner />
      <InstanceList />
    </Stack>
  )
}
