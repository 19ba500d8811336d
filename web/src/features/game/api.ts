import useSWR from 'swr'
import { api, unwrap } from '@/api/client'
import type { ApiError } from '@/api/error'
import { apiKey, ONCE, useApi, useFirstPaintDone, useRevalidate } from '@/api/hooks'
import type { AnswerResult, Body, Ok } from '@/api/types'
import { upload } from '@/api/upload'
import { backoffSchedule, pollUntil } from './poll-backoff'

export type GameSummary = Ok<'/api/game'>['data'][number]
export type GameInfo = Ok<'/api/game/{id}'>
export type GameDetails = Ok<'/api/game/{id}/details'>
export type ChallengeInfo = GameDetails['challenges'][string][number]
export type ChallengeDetail = Ok<'/api/game/{id}/challenges/{challengeId}'>
export type Scoreboard = Ok<'/api/game/{id}/scoreboard'>
export type ScoreboardItem = Scoreboard['items'][number]
export type GameNotice = Ok<'/api/game/{id}/notices'>[number]
export type GameEvent = Ok<'/api/game/{id}/events'>[number]
export type Submission = Ok<'/api/game/{id}/submissions'>[number]
export type CheatInfo = Ok<'/api/game/{id}/cheatinfo'>[number]
export type MyTeam = Ok<'/api/team'>[number]

const gameKey = (id: number) => `/api/game/${id}`

/**
 * SWR retries failed requests forever by default; a 4xx (not joined, not started, ended, gone)
 * will not change by asking again, so only network and server errors are retried, a few times.
 */
const retry = {
  onErrorRetry(
    err: ApiError,
    _key: string,
    _config: unknown,
    revalidate: (options: { retryCount: number }) => void,
    { retryCount }: { retryCount: number },
  ) {
    if ((err.httpStatus >= 400 && err.httpStatus < 500) || retryCount >= 5) return
    setTimeout(() => revalidate({ retryCount }), 5_000 * 2 ** retryCount)
  },
}

/** A page of public games, latest start first; refreshed every 5 minutes. */
export function useGames(page: number, pageSize: number) {
  return useApi(
    '/api/game',
    { query: { count: pageSize, skip: (page - 1) * pageSize } },
    { ...retry, refreshInterval: 5 * 60_000, keepPreviousData: true },
  )
}

/**
 * A game with the caller's registration. Fetched once (refreshed on focus, so a team waiting
 * for review sees the decision); joining and leaving revalidate it.
 */
export function useGame(id: number) {
  const valid = Number.isSafeInteger(id) && id > 0
  return useApi(
    valid ? '/api/game/{id}' : null,
    { path: { id } },
    { ...retry, ...ONCE, revalidateOnFocus: true },
  )
}

/**
 * The caller's registration in a game, as far as this browser already knows it: the list
 * (`GET /api/game`) does not tell, the game's own page (`GET /api/game/{id}`, kept in the client
 * cache across visits, wiped at sign-out) does. Never asks the server. Null when not joined,
 * rejected, or not known here (joined from another browser and not opened in this one).
 */
export function useKnownRegistration(id: number): GameInfo | null {
  const { data } = useSWR<GameInfo>(apiKey('/api/game/{id}', { path: { id } }), null)
  return data && data.status !== 'Unsubmitted' && data.status !== 'Rejected' ? data : null
}

/** The caller's teams (to pick one when joining); only asked when signed in. */
export function useMyTeams(signedIn: boolean) {
  return useApi(signedIn ? '/api/team' : null, undefined, { ...retry, refreshInterval: 120_000 })
}

/** Join a game for a team; refreshes the game and everything under it. */
export function useJoinGame(id: number) {
  const revalidate = useRevalidate()
  return async (body: Body<'/api/game/{id}', 'post'>) => {
    await unwrap(api.POST('/api/game/{id}', { params: { path: { id } }, body }))
    await revalidate(gameKey(id))
  }
}

/** Leave a game while the registration is pending or rejected. */
export function useLeaveGame(id: number) {
  const revalidate = useRevalidate()
  return async () => {
    await unwrap(api.DELETE('/api/game/{id}', { params: { path: { id } } }))
    await revalidate(gameKey(id))
  }
}

/** The team's challenges, solves and rank: every 10 s while the game runs, else once. */
export function useGameDetails(id: number, running: boolean) {
  return useApi(
    '/api/game/{id}/details',
    { path: { id } },
    { ...retry, refreshInterval: running ? 10_000 : 0, revalidateOnFocus: running },
  )
}

/** While a hub pushes changes, lists are re-read only this often (a safety net). */
const LIVE_REFRESH = { refreshInterval: 120_000 }

/** The game's notices; polled every 10 s unless the user hub is live. */
export function useNotices(id: number, live = false) {
  // A side panel: asked for once the board is on screen.
  const painted = useFirstPaintDone()
  return useApi(
    painted ? '/api/game/{id}/notices' : null,
    { path: { id }, query: { count: 100, skip: 0 } },
    { ...retry, ...(live ? LIVE_REFRESH : {}) },
  )
}

/** One challenge as the team sees it; refreshed every 2 minutes while open. */
export function useChallenge(id: number, challengeId: number | null) {
  return useApi(
    challengeId ? '/api/game/{id}/challenges/{challengeId}' : null,
    { path: { id, challengeId: challengeId ?? 0 } },
    { ...retry, refreshInterval: 120_000, revalidateOnFocus: false },
  )
}

/**
 * The team's container of a challenge: start, extend, destroy. Each refreshes the challenge,
 * whose `instanceEntry` and `closeTime` are what the dialog shows.
 */
export function useContainerActions(id: number, challengeId: number) {
  const revalidate = useRevalidate()
  const path = { id, challengeId }
  const after = async <T>(pending: Promise<T>) => {
    try {
      return await pending
    } finally {
      // Also after a failure: "already running" or "not created" means the dialog is out of date.
      await revalidate(apiKey('/api/game/{id}/challenges/{challengeId}', { path }))
    }
  }
  return {
    start: () => after(unwrap(api.POST('/api/game/{id}/container/{challengeId}', { params: { path } }))),
    extend: () =>
      after(unwrap(api.POST('/api/game/{id}/container/{challengeId}/extend', { params: { path } }))),
    destroy: () => after(unwrap(api.DELETE('/api/game/{id}/container/{challengeId}', { params: { path } }))),
  }
}

/** What came of a flag: the judge's answer, or `Timeout` when it did not answer in time. */
export type FlagOutcome = AnswerResult | 'Timeout'

/**
 * Submits a flag and waits for the judge, polling the status with a growing delay (300 ms up
 * to 2 s) for about a minute. Afterwards the challenge, the team's details and the scoreboard
 * are refreshed (attempts changed; on success the solve shows everywhere).
 */
export function useSubmitFlag(id: number) {
  const revalidate = useRevalidate()
  return async (challengeId: number, flag: string, signal?: AbortSignal): Promise<FlagOutcome> => {
    const path = { id, challengeId }
    const submitId = await unwrap(
      api.POST('/api/game/{id}/challenges/{challengeId}', { params: { path }, body: { flag } }),
    )
    const result = await pollUntil(
      () =>
        unwrap(
          api.GET('/api/game/{id}/challenges/{challengeId}/status/{submitId}', {
            params: { path: { ...path, submitId } },
          }),
        ),
      (status) => status !== 'FlagSubmitted',
      backoffSchedule(),
      { signal },
    )
    const refresh = [apiKey('/api/game/{id}/challenges/{challengeId}', { path })]
    if (result === 'Accepted') refresh.push(`${gameKey(id)}/details`, `${gameKey(id)}/scoreboard`)
    void revalidate(...refresh)
    return result ?? 'Timeout'
  }
}

/** The team's writeup and the organisers' note. */
export function useWriteup(id: number, enabled: boolean) {
  return useApi(enabled ? '/api/game/{id}/writeup' : null, { path: { id } }, { ...retry, ...ONCE })
}

/** Hands in the writeup (a PDF) with upload progress; refreshes the writeup state. */
export function useUploadWriteup(id: number) {
  const revalidate = useRevalidate()
  return async (file: File, onProgress: (fraction: number) => void) => {
    const form = new FormData()
    form.append('file', file)
    await upload('POST', `${gameKey(id)}/writeup`, form, onProgress)
    await revalidate(`${gameKey(id)}/writeup`)
  }
}

/** The scoreboard: every 30 s while the game runs (unless the hub says when it changed), else once. */
export function useScoreboard(id: number, running: boolean, live = false) {
  return useApi(
    '/api/game/{id}/scoreboard',
    { path: { id } },
    { ...retry, refreshInterval: running ? (live ? 120_000 : 30_000) : 0, revalidateOnFocus: running },
  )
}

/** The caller's own scoreboard row id, known from the team details (fetched once). */
export function useMyTeamId(id: number, accepted: boolean) {
  const { data } = useApi(accepted ? '/api/game/{id}/details' : null, { path: { id } }, { ...retry, ...ONCE })
  return data?.rank?.id
}

// Monitor views: polled every 10 s, or fed by the monitor hub while it is live.

export function useGameEvents(
  id: number,
  hideContainer: boolean,
  page: number,
  pageSize: number,
  live = false,
) {
  return useApi(
    '/api/game/{id}/events',
    { path: { id }, query: { hideContainer, count: pageSize, skip: (page - 1) * pageSize } },
    { ...retry, keepPreviousData: true, ...(live ? LIVE_REFRESH : {}) },
  )
}

export function useSubmissions(
  id: number,
  type: AnswerResult | undefined,
  page: number,
  pageSize: number,
  live = false,
) {
  return useApi(
    '/api/game/{id}/submissions',
    { path: { id }, query: { type, count: pageSize, skip: (page - 1) * pageSize } },
    { ...retry, keepPreviousData: true, ...(live ? LIVE_REFRESH : {}) },
  )
}

export function useCheatInfo(id: number) {
  return useApi('/api/game/{id}/cheatinfo', { path: { id } }, retry)
}

/** Spreadsheet downloads for monitors (plain links: the browser saves the file). */
export const sheetUrl = {
  scoreboard: (id: number) => `${gameKey(id)}/scoreboardsheet`,
  submissions: (id: number) => `${gameKey(id)}/submissionsheet`,
}

// Traffic captures (monitors): challenges with capture on → teams → files.

export type ChallengeTraffic = Ok<'/api/game/games/{id}/captures'>[number]
export type TeamTraffic = Ok<'/api/game/captures/{challengeId}'>[number]
export type CaptureFile = Ok<'/api/game/captures/{challengeId}/{partId}'>[number]

export function useCaptureChallenges(gameId: number) {
  return useApi('/api/game/games/{id}/captures', { path: { id: gameId } }, retry)
}

/** Teams with captures of a challenge; a challenge without any answers 404, shown as none. */
export function useCaptureTeams(challengeId: number | null) {
  return useApi(
    challengeId ? '/api/game/captures/{challengeId}' : null,
    { path: { challengeId: challengeId ?? 0 } },
    retry,
  )
}

export function useCaptureFiles(challengeId: number | null, partId: number | null) {
  return useApi(
    challengeId && partId ? '/api/game/captures/{challengeId}/{partId}' : null,
    { path: { challengeId: challengeId ?? 0, partId: partId ?? 0 } },
    retry,
  )
}

/** Downloads are plain links: the browser saves the file (one pcap, or a team's tar.gz). */
export const captureUrl = (challengeId: number, partId: number, fileName = 'all') =>
  `/api/game/captures/${challengeId}/${partId}/${encodeURIComponent(fileName)}`

/** Deletes one capture file, or all of a team's (`all`), then refreshes the three lists. */
export function useDeleteCapture(gameId: number) {
  const revalidate = useRevalidate()
  return async (challengeId: number, partId: number, fileName = 'all') => {
    try {
      await unwrap(
        api.DELETE('/api/game/captures/{challengeId}/{partId}/{filename}', {
          params: { path: { challengeId, partId, filename: fileName } },
        }),
      )
    } finally {
      await revalidate(`/api/game/captures/${challengeId}`, `/api/game/games/${gameId}/captures`)
    }
  }
}
