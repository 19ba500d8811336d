import { useParams } from 'react-router'
import { TrafficView } from '@/features/game/monitor/traffic-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function MonitorTrafficPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  usePageTitle(t('game.monitor.tab.traffic'))
  return <TrafficView gameId={Number(id)} />
}
