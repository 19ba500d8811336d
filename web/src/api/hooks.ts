import useSWR, { type SWRConfiguration, useSWRConfig } from 'swr'
import { api, unwrap } from './client'
import type { ApiError } from './error'
import type { GetParams, GetPath, Ok } from './types'
import { resolveUrl } from './url'

/** Fetches a resolved API URL (the SWR key) through the typed client. */
export function fetchUrl(url: string): Promise<unknown> {
  // The URL is already resolved, so the client's typing by path template does not apply here.
  return unwrap((api.GET as (u: string) => Promise<{ data?: unknown; response: Response }>)(url))
}

/**
 * A GET route as SWR data. The resolved URL is the cache key, so a key names its endpoint; pass
 * `null` as the path to wait (dependent queries).
 */
export function useApi<P extends GetPath>(
  path: P | null,
  params?: GetParams<P>,
  config?: SWRConfiguration<Ok<P>, ApiError>,
) {
  const key = path ? resolveUrl(path, params as Parameters<typeof resolveUrl>[1]) : null
  return useSWR<Ok<P>, ApiError>(key, fetchUrl as (url: string) => Promise<Ok<P>>, config)
}

/** The key a GET route is cached under, for invalidation after a change. */
export function apiKey<P extends GetPath>(path: P, params?: GetParams<P>): string {
  return resolveUrl(path, params as Parameters<typeof resolveUrl>[1])
}

/**
 * Revalidates cached routes at or below the given paths (`/api/team` also refreshes `/api/team/3`). Uses the scoped mutate:
 * a global one would not reach our custom cache provider.
 */
export function useRevalidate() {
  const { mutate } = useSWRConfig()
  return (...prefixes: string[]) =>
    mutate(
      (key) =>
        typeof key === 'string' &&
        prefixes.some((p) => key === p || key.startsWith(`${p}/`) || key.startsWith(`${p}?`)),
    )
}

/** One-shot fetches that need no polling (detail views, config). */
export const ONCE: SWRConfiguration = {
  refreshInterval: 0,
  revalidateOnFocus: false,
}
