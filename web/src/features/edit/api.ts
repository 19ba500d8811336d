import { api, unwrap } from '@/api/client'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Body, Ok } from '@/api/types'
import { upload } from '@/api/upload'

export type EditGame = Ok<'/api/edit/games/{id}'>
export type EditNotice = Ok<'/api/edit/games/{id}/notices'>[number]
export type EditChallengeSummary = Ok<'/api/edit/games/{id}/challenges'>[number]
export type EditChallenge = Ok<'/api/edit/games/{id}/challenges/{cId}'>
export type EditFlag = EditChallenge['flags'][number]
export type Participation = Ok<'/api/game/{id}/participations'>[number]
export type WriteupInfo = Ok<'/api/admin/writeups/{id}'>[number]
export type LocalFile = Ok<'/api/assets', 'post'>[number]
export type ChallengeUpdate = Body<'/api/edit/games/{id}/challenges/{cId}', 'put'>

const GAMES = '/api/edit/games'
const game = (id: number) => `${GAMES}/${id}`
const challenges = (id: number) => `${game(id)}/challenges`
// Public views that show what organisers change here.
const PUBLIC_GAMES = ['/api/game', '/api/game/recent']

/** Admin views refresh when asked to (after a change) and on focus, never on a timer. */
const QUIET = { ...ONCE, revalidateOnFocus: true }

/** One page of every game, hidden ones included, newest first. */
export function useEditGames(page: number, pageSize: number) {
  return useApi(
    '/api/edit/games',
    { query: { count: pageSize, skip: (page - 1) * pageSize } },
    { ...QUIET, keepPreviousData: true },
  )
}

export function useEditGame(id: number) {
  return useApi(id > 0 ? '/api/edit/games/{id}' : null, { path: { id } }, QUIET)
}

export function useEditNotices(id: number) {
  return useApi('/api/edit/games/{id}/notices', { path: { id } }, QUIET)
}

export function useEditChallenges(id: number) {
  return useApi('/api/edit/games/{id}/challenges', { path: { id } }, QUIET)
}

export function useEditChallenge(id: number, cId: number) {
  return useApi(cId > 0 ? '/api/edit/games/{id}/challenges/{cId}' : null, { path: { id, cId } }, QUIET)
}

/** Teams taking part, for review; refreshed on focus (teams keep registering). */
export function useParticipations(id: number) {
  return useApi('/api/game/{id}/participations', { path: { id } }, QUIET)
}

export function useWriteups(id: number) {
  return useApi('/api/admin/writeups/{id}', { path: { id } }, QUIET)
}

/** The salt behind `[TEAM_HASH]` (for organisers who compute team flags elsewhere). */
export function useHashSalt(id: number, enabled: boolean) {
  return useApi(enabled ? '/api/edit/games/{id}/hashsalt' : null, { path: { id } }, ONCE)
}

const p = (id: number) => ({ params: { path: { id } } })
const pc = (id: number, cId: number) => ({ params: { path: { id, cId } } })

/** Creating, changing and deleting games; each refreshes the admin list and the public lists. */
export function useGameActions() {
  const revalidate = useRevalidate()
  // `/api/ext/games/:id`: the freeze state follows the game's freeze time (Pennant addition).
  const done = (id?: number) =>
    revalidate(GAMES, ...PUBLIC_GAMES, ...(id ? [`/api/game/${id}`, `/api/ext/games/${id}`] : []))
  return {
    refresh: (id: number) => revalidate(game(id)),
    async create(body: Body<'/api/edit/games', 'post'>) {
      const created = await unwrap(api.POST('/api/edit/games', { body }))
      await done()
      return created
    },
    async update(id: number, body: Body<'/api/edit/games/{id}', 'put'>) {
      const updated = await unwrap(api.PUT('/api/edit/games/{id}', { ...p(id), body }))
      await done(id)
      return updated
    },
    /**
     * Hides or shows a game from the list. The list's copy of a game may be older than the game
     * (kept between visits, or changed in another tab since), and the update replaces every field
     * it is given: so the game is read afresh and only `hidden` changes.
     */
    async setHidden(id: number, hidden: boolean) {
      const current = await unwrap(api.GET('/api/edit/games/{id}', p(id)))
      const updated = await unwrap(
        api.PUT('/api/edit/games/{id}', { ...p(id), body: { ...current, hidden } }),
      )
      await done(id)
      return updated
    },
    async remove(id: number) {
      await unwrap(api.DELETE('/api/edit/games/{id}', p(id)))
      await done()
    },
    async deleteWriteups(id: number) {
      await unwrap(api.DELETE('/api/edit/games/{id}/writeups', p(id)))
      await revalidate(`/api/admin/writeups/${id}`)
    },
    /** After a poster upload (multipart, see `posterUrl`). */
    posterChanged: (id: number) => done(id),
  }
}

export const posterUrl = (id: number) => `/api/edit/games/${id}/poster`

export function useNoticeActions(id: number) {
  const revalidate = useRevalidate()
  const done = () => revalidate(`${game(id)}/notices`, `/api/game/${id}/notices`)
  return {
    async create(content: string) {
      await unwrap(api.POST('/api/edit/games/{id}/notices', { ...p(id), body: { content } }))
      await done()
    },
    async update(noticeId: number, content: string) {
      await unwrap(
        api.PUT('/api/edit/games/{id}/notices/{noticeId}', {
          params: { path: { id, noticeId } },
          body: { content },
        }),
      )
      await done()
    },
    async remove(noticeId: number) {
      await unwrap(
        api.DELETE('/api/edit/games/{id}/notices/{noticeId}', { params: { path: { id, noticeId } } }),
      )
      await done()
    },
  }
}

/** Challenge changes; each refreshes the game's challenge list and the changed challenge. */
export function useChallengeActions(id: number) {
  const revalidate = useRevalidate()
  const done = () => revalidate(challenges(id), `/api/game/${id}/details`, `/api/game/${id}/scoreboard`)
  const after = async <T>(pending: Promise<T>) => {
    const result = await pending
    await done()
    return result
  }
  return {
    create: (body: Body<'/api/edit/games/{id}/challenges', 'post'>) =>
      after(unwrap(api.POST('/api/edit/games/{id}/challenges', { ...p(id), body }))),
    update: (cId: number, body: ChallengeUpdate) =>
      after(unwrap(api.PUT('/api/edit/games/{id}/challenges/{cId}', { ...pc(id, cId), body }))),
    remove: (cId: number) => after(unwrap(api.DELETE('/api/edit/games/{id}/challenges/{cId}', pc(id, cId)))),
    updateAccepted: () => after(unwrap(api.POST('/api/edit/games/{id}/challenges/updateaccepted', p(id)))),
    setAttachment: (cId: number, body: Body<'/api/edit/games/{id}/challenges/{cId}/attachment', 'post'>) =>
      after(unwrap(api.POST('/api/edit/games/{id}/challenges/{cId}/attachment', { ...pc(id, cId), body }))),
    addFlags: (cId: number, body: Body<'/api/edit/games/{id}/challenges/{cId}/flags', 'post'>) =>
      after(unwrap(api.POST('/api/edit/games/{id}/challenges/{cId}/flags', { ...pc(id, cId), body }))),
    /** "NotFound" when the flag was already gone (still a success for the screen). */
    deleteFlag: (cId: number, fId: number) =>
      after(
        unwrap(
          api.DELETE('/api/edit/games/{id}/challenges/{cId}/flags/{fId}', {
            params: { path: { id, cId, fId } },
          }),
        ),
      ),
  }
}

/**
 * The organisers' test container of a challenge (started from the saved settings); each change
 * refreshes the challenge, which carries `testContainer`.
 */
export function useTestContainerActions(id: number, cId: number) {
  const revalidate = useRevalidate()
  const after = async <T>(pending: Promise<T>) => {
    try {
      return await pending
    } finally {
      await revalidate(`${challenges(id)}/${cId}`)
    }
  }
  return {
    start: () => after(unwrap(api.POST('/api/edit/games/{id}/challenges/{cId}/container', pc(id, cId)))),
    destroy: () => after(unwrap(api.DELETE('/api/edit/games/{id}/challenges/{cId}/container', pc(id, cId)))),
  }
}

/** Review decisions and division moves; refreshes the list and the public views they change. */
export function useReviewActions(id: number) {
  const revalidate = useRevalidate()
  return async (partId: number, body: Body<'/api/admin/participation/{id}', 'put'>) => {
    await unwrap(api.PUT('/api/admin/participation/{id}', { ...p(partId), body }))
    await revalidate(`/api/game/${id}/participations`, `/api/game/${id}/scoreboard`)
  }
}

/** Stores files (multipart field `files`); answers each stored file's hash and name. */
export function uploadAssets(files: File[], onProgress?: (fraction: number) => void): Promise<LocalFile[]> {
  const form = new FormData()
  for (const file of files) form.append('files', file)
  return upload<LocalFile[]>('POST', '/api/assets', form, onProgress)
}

/** The archive of every writeup of a game (a plain link: the browser downloads it). */
export const writeupsArchiveUrl = (id: number) => `/api/admin/writeups/${id}/all`

export type FolderPlan = Ok<'/api/edit/games/{id}/challenges/folder', 'post'>
export type FolderPlanItem = FolderPlan['items'][number]

/** Plans a zipped challenge folder against the game; with `apply`, syncs it (challenges as code). */
export function sendFolder(
  gameId: number,
  file: File,
  opts: { apply: boolean; prune: boolean },
  onProgress?: (f: number) => void,
) {
  const form = new FormData()
  form.append('file', file)
  const query = new URLSearchParams({ apply: String(opts.apply), prune: String(opts.prune) })
  return upload<FolderPlan>('POST', `/api/edit/games/${gameId}/challenges/folder?${query}`, form, onProgress)
}

export type ContainerCheckResult = Ok<'/api/edit/games/{id}/challenges/{cId}/check', 'post'>

/** Checks a container challenge for real (about half a minute); the checklist it answers. */
export async function checkContainer(id: number, cId: number): Promise<ContainerCheckResult> {
  return unwrap(api.POST('/api/edit/games/{id}/challenges/{cId}/check', { params: { path: { id, cId } } }))
}
