import { useParams } from 'react-router'
import { DataState } from '@/components/data-state'
import { useEditChallenge } from '@/features/edit/api'
import { ChallengeEditor } from '@/features/edit/components/challenge-editor'
import { useSettled } from '@/features/edit/use-settled'
import { usePageTitle } from '@/features/info/use-page-title'
import { useTranslation } from '@/i18n'

function EditorLoader({ id, chalId }: { id: number; chalId: number }) {
  const { t } = useTranslation()
  const result = useEditChallenge(id, chalId)
  const { data, error, mutate } = result
  const settled = useSettled(result)
  usePageTitle(data ? `${data.title} · ${t('admin.game_tabs.challenges')}` : t('admin.game_tabs.challenges'))
  return (
    <DataState loading={!settled && !error} error={settled ? undefined : error} onRetry={() => mutate()}>
      {settled && data && <ChallengeEditor gameId={id} challenge={data} />}
    </DataState>
  )
}

/** `/admin/games/:id/challenges/:chalId`: one challenge's settings. */
export default function ChallengeEditPage() {
  const params = useParams()
  const id = Number(params.id)
  const chalId = Number(params.chalId)
  // Keyed by challenge: moving to the next one starts over (fresh data, fresh form).
  return <EditorLoader key={`${id}/${chalId}`} id={id} chalId={chalId} />
}
