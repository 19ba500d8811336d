import { useParams } from 'react-router'
import { EventsView } from '@/features/game/monitor/events-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function MonitorEventsPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  usePageTitle(t('game.monitor.tab.events'))
  return <EventsView gameId={Number(id)} />
}
