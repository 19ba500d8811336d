import { useParams } from 'react-router'
import { SubmissionsView } from '@/features/game/monitor/submissions-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function MonitorSubmissionsPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  usePageTitle(t('game.monitor.tab.submissions'))
  return <SubmissionsView gameId={Number(id)} />
}
