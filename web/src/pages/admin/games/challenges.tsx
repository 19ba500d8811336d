import { useParams } from 'react-router'
import { ChallengeList } from '@/features/edit/components/challenge-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/challenges`: the game's challenges. */
export default function GameChallengesPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.game_tabs.challenges'))
  return <ChallengeList gameId={Number(useParams().id)} />
}
