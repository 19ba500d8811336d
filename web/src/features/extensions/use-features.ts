import { useApi } from '@/api/hooks'

export type FeatureName =
  | 'scheduledRelease'
  | 'bigScreen'
  | 'freeze'
  | 'ctftime'
  | 'gameTransfer'
  | 'oidc'
  | 'webhooks'

/**
 * Which of our own additions an admin switched on (`/api/ext/features`). `undefined` while it
 * loads: screens show nothing of an addition until they know it is on.
 */
export function useFeature(name: FeatureName): boolean | undefined {
  const { data, error } = useApi('/api/ext/features', undefined, { revalidateOnFocus: false })
  if (error) return false
  return data ? data[name] : undefined
}
