import { useParams } from 'react-router'
import { NoticeList } from '@/features/edit/components/notice-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/notices`: the game's announcements. */
export default function GameNoticesPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.game_tabs.notices'))
  return <NoticeList gameId={Number(useParams().id)} />
}
