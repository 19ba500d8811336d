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
export function useFeatures() {
  return useApi(FEATURES, undefined, { revalidateOnFocus: false, dedupingInterval: 60_000 })
}

/** Whether one addition is on; false while unknown, so nothing flashes in and out. */
export function useFeature(name: FeatureName): boolean {
  return useFeatures().data?.[name] ?? false
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
