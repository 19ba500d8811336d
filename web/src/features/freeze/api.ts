import { api, unwrap } from '@/api/client'
import { useApi, useFirstPaintDone, useRevalidate } from '@/api/hooks'
import type { Ok } from '@/api/types'

export type FreezeStatus = Ok<'/api/ext/games/{id}/freeze'>

/**
 * Whether a game's public scoreboard is frozen (Pennant addition, the `freeze` switch). Asked
 * again every minute, so a page left open notices the freeze and the reveal.
 */
export function useFreeze(gameId: number) {
  const valid = Number.isSafeInteger(gameId) && gameId > 0
  // A banner that appears a frame later; the page's content goes first.
  const painted = useFirstPaintDone()
  return useApi(
    valid && painted ? '/api/ext/games/{id}/freeze' : null,
    { path: { id: gameId } },
    {
      refreshInterval: 60_000,
      revalidateOnFocus: true,
      // A hidden or missing game answers 404: nothing to show, nothing to retry.
      shouldRetryOnError: false,
    },
  )
}

/** The admin's reveal: publishes the true board; every view of the game is read again. */
export function useReveal() {
  const revalidate = useRevalidate()
  return async (gameId: number) => {
    const game = await unwrap(api.POST('/api/ext/games/{id}/reveal', { params: { path: { id: gameId } } }))
    await revalidate(`/api/game/${gameId}`, `/api/ext/games/${gameId}`, `/api/edit/games/${gameId}`)
    return game
  }
}
