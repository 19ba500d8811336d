import { Stack, Title } from '@mantine/core'
import { IconNetwork } from '@tabler/icons-react'
import { EmptyView } from '@/features/game/components/empty-view'
import { usePageTitle } from '@/hooks/use-page-title'
import { useTranslation } from '@/i18n'

/** Traffic capture comes with containers (a later issue); until then, a note. */
export default function MonitorTrafficPage() {
  const { t } = useTranslation()
  usePageTitle(t('game.monitor.tab.traffic'))
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('game.monitor.tab.traffic')}
      </Title>
      <EmptyView
        icon={IconNetwork}
        title={t('game.monitor.traffic_soon')}
        description={t('game.monitor.traffic_soon_hint')}
      />
    </Stack>
  )
}
