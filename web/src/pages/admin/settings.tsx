import { Stack } from '@mantine/core'
import { ComingSoon } from '@/components/coming-soon'
import { ContainerStatusBanner } from '@/features/admin/components/container-status-banner'

/** `/admin/settings`: still to come; meanwhile it tells whether containers are configured. */
export default function Page() {
  return (
    <Stack gap="md">
      <ContainerStatusBanner />
      <ComingSoon title="Settings" />
    </Stack>
  )
}
