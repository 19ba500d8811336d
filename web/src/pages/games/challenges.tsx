import { useParams } from 'react-router'
import { useGame } from '@/features/game/api'
import { ChallengeBoard } from '@/features/game/challenges/challenge-board'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

export default function ChallengesPage() {
  const { t } = useTranslation()
  const { id } = useParams()
  // The game area's frame has loaded the game already (same cache entry).
  const { data: game } = useGame(Number(id))
  usePageTitle(game ? `${t('game.area.tab.challenges')} · ${game.title}` : t('game.area.tab.challenges'))
  return game ? <ChallengeBoard game={game} /> : null
}
