import { useParams } from 'react-router'
import { ReviewList } from '@/features/edit/components/review-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/review`: the teams that registered, and the decisions on them. */
export default function GameReviewPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.game_tabs.review'))
  return <ReviewList gameId={Number(useParams().id)} />
}
