import { api, unwrap } from '@/api/client'
import { useApi, useRevalidate } from '@/api/hooks'
import type { Ok } from '@/api/types'

const FEATURES = '/api/ext/features'
export type Features = Ok<typeof FEATURES>
export type FeatureName = keyof Features

/**
 * Which of Pennant's own additions an admin switched on (`/api/ext/features`). Screens that
 * offer one (identity-provider buttons, the big-screen link…) show it only when it is on.
 */
export function useFeatures(ask = true) {
  return useApi(ask ? FEATURES : null, undefined, { revalidateOnFocus: false, dedupingInterval: 60_000 })
}

/**
 * Whether one addition is on: `undefined` while it loads (screens show nothing of an addition
 * until they know it is on), false when the switches cannot be read. `ask: false` for a caller
 * that could not use it anyway (a player, for a staff-only link) skips the request.
 */
export function useFeature(name: FeatureName, ask = true): boolean | undefined {
  const { data, error } = useFeatures(ask)
  if (error) return false
  return data ? data[name] : undefined
}

/** Turns additions on or off (admins); every screen reading the switches sees the change. */
export function useFeatureActions() {
  const revalidate = useRevalidate()
  return {
    async set(changes: Partial<Features>): Promise<Features> {
      const next = await unwrap(api.PUT(FEATURES, { body: changes }))
      await revalidate(FEATURES)
      return next
    },
  }
}
