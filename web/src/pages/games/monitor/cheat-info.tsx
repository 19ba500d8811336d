import { useParams } from 'react-router'
import { CheatView } from '@/features/game/monitor/cheat-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function MonitorCheatInfoPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  usePageTitle(t('game.monitor.tab.cheatinfo'))
  return <CheatView gameId={Number(id)} />
}
