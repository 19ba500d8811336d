import { GameList } from '@/features/edit/components/game-list'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games`: every game, and new ones. */
export default function AdminGamesPage() {
  const { t } = useTranslation()
  usePageTitle(t('admin.games.title'))
  return <GameList />
}
