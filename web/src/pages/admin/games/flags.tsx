import { useParams } from 'react-router'
import { FlagsView } from '@/features/edit/components/flags-view'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/challenges/:chalId/flags`: attachment and flags of a challenge. */
export default function ChallengeFlagsPage() {
  const { t } = useTranslation()
  const params = useParams()
  usePageTitle(t('admin.flags.title'))
  return <FlagsView gameId={Number(params.id)} challengeId={Number(params.chalId)} />
}
