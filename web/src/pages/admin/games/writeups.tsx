import { useParams } from 'react-router'
import { WriteupList } from '@/features/edit/components/writeup-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/writeups`: the teams' writeups. */
export default function GameWriteupsPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.game_tabs.writeups'))
  return <WriteupList gameId={Number(useParams().id)} />
}
