import { useParams } from 'react-router'
import { DataState } from '@/components/data-state'
import { useEditGame } from '@/features/edit/api'
import { GameInfoForm } from '@/features/edit/components/game-info-form'
import { useSettled } from '@/features/edit/use-settled'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

/** `/admin/games/:id/info`: every setting of a game. */
export default function GameInfoPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const result = useEditGame(id)
  const { data: game, error, mutate } = result
  const settled = useSettled(result)
  usePageTitle(game ? `${t('admin.game_tabs.info')} · ${game.title}` : t('admin.game_tabs.info'))
  return (
    <DataState loading={!settled && !error} error={settled ? undefined : error} onRetry={() => mutate()}>
      {settled && game && <GameInfoForm key={game.id} game={game} />}
    </DataState>
  )
}
