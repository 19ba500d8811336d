import { useParams } from 'react-router'
import { useGame } from '@/features/game/api'
import { ScoreboardView } from '@/features/game/scoreboard/scoreboard-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function ScoreboardPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  const { data: game } = useGame(Number(id))
  usePageTitle(game ? `${t('game.area.tab.scoreboard')} · ${game.title}` : t('game.area.tab.scoreboard'))
  return game ? <ScoreboardView game={game} /> : null
}
