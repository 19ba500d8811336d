import { useSyncExternalStore } from 'react'
import useSWR, { type SWRConfiguration, useSWRConfig } from 'swr'
import { api, unwrap } from './client'
import { EARLY_GLOBAL, SESSION_DATA, SIGNED_IN_COOKIE } from './early-global'
import { ApiError } from './error'
import type { GetParams, GetPath, Ok } from './types'
import { resolveUrl } from './url'

/** Whether the server said this browser holds a session (its readable hint cookie). */
export const hasSessionHint = () =>
  typeof document !== 'undefined' &&
  document.cookie.split('; ').some((c) => c.startsWith(`${SIGNED_IN_COOKIE}=`))

// The URL is already resolved, so the client's typing by path template does not apply here.
// Without a session, what needs one is answered 401 here rather than by a logged failed request.
const get = (url: string) =>
  SESSION_DATA.includes(url) && !hasSessionHint()
    ? Promise.reject(new ApiError(401, 'Not signed in', 401))
    : unwrap((api.GET as (u: string) => Promise<{ data?: unknown; response: Response }>)(url))

/**
 * Answers asked for ahead of their hook, by URL, with when they were asked (see `prefetch`) and,
 * once it has arrived, the data.
 */
type Prefetched = { answer: Promise<unknown>; at: number; arrived?: { data: unknown } }
const prefetched = new Map<string, Prefetched>()
/** A prefetched answer no hook took within this long is dropped rather than served stale. */
const PREFETCH_KEPT_MS = 10_000

/** Answers the HTML page started before any code had arrived (vite.config.ts), by URL. */
const early = (globalThis as { [EARLY_GLOBAL]?: Record<string, Promise<Response>> })[EARLY_GLOBAL] ?? {}

/** The HTML page's answer for `url`, read as the typed client reads one; once. */
function takeEarly(url: string): Promise<unknown> | undefined {
  const pending = early[url]
  if (!pending) return undefined
  delete early[url]
  return unwrap(
    pending.then(async (response) => {
      const text = await response.text()
      const body = text ? JSON.parse(text) : undefined
      return response.ok ? { data: body, response } : { error: body, response }
    }),
  )
}

/**
 * Starts a GET now that a hook is known to ask for soon: at start-up the page's data goes out
 * together with the page's code instead of after it has loaded and rendered. The hook's first
 * fetch of that URL takes the answer (or its error) instead of asking again.
 */
export function prefetch(url: string): void {
  if (prefetched.has(url)) return
  const answer = takeEarly(url) ?? get(url)
  const entry: Prefetched = { answer, at: Date.now() }
  // A failure is reported by the hook that takes it.
  answer.then(
    (data) => {
      entry.arrived = { data }
    },
    () => {},
  )
  prefetched.set(url, entry)
}

/**
 * The prefetched answers that have arrived once all have or `enough` settles, whichever is first:
 * start-up puts them in the cache so the first render shows the page with its data, instead of
 * placeholders first and the page again a moment later. The answers taken leave the prefetch
 * map, and hooks mounting soon after do not ask again (see `primed`).
 */
export async function arrivedPrefetches(enough: Promise<unknown>): Promise<[string, unknown][]> {
  await Promise.race([Promise.allSettled([...prefetched.values()].map((e) => e.answer)), enough])
  const arrived: [string, unknown][] = []
  for (const [url, e] of prefetched)
    if (e.arrived) {
      arrived.push([url, e.arrived.data])
      // Now in the cache: a later fetch of the URL asks the server again.
      prefetched.delete(url)
      primed.set(url, Date.now())
    }
  return arrived
}

/**
 * URLs whose answer start-up put in the cache, with when: a hook mounting within SWR's usual
 * deduplication window takes that answer as fresh instead of asking again at once (its polling
 * runs as usual).
 */
const primed = new Map<string, number>()
const PRIMED_FRESH_MS = 2_000
const freshlyPrimed = (key: string | null) => {
  const at = key ? primed.get(key) : undefined
  return at !== undefined && Date.now() - at < PRIMED_FRESH_MS
}

let painted = false
const paintListeners = new Set<() => void>()
/**
 * Called once the first screen is up (app.tsx): the frame after it has been painted, or a second
 * later if the tab is hidden and paints nothing. Hooks for what the first paint can do without
 * (the notices panel, the freeze banner) ask only then, so the requests and work the page's
 * main content needs are not queued behind them.
 */
export function markFirstPaint(): void {
  const done = () => {
    if (painted) return
    painted = true
    for (const listener of paintListeners) listener()
  }
  requestAnimationFrame(() => setTimeout(done, 0))
  setTimeout(done, 1000)
}

/** Whether the first screen has been painted (see `markFirstPaint`). */
export function useFirstPaintDone(): boolean {
  return useSyncExternalStore(
    (listener) => {
      paintListeners.add(listener)
      return () => paintListeners.delete(listener)
    },
    () => painted,
  )
}

/** Fetches a resolved API URL (the SWR key) through the typed client. */
export function fetchUrl(url: string): Promise<unknown> {
  const early = prefetched.get(url)
  if (early) {
    prefetched.delete(url)
    if (Date.now() - early.at < PREFETCH_KEPT_MS) return early.answer
  }
  return get(url)
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
  return useSWR<Ok<P>, ApiError>(
    key,
    fetchUrl as (url: string) => Promise<Ok<P>>,
    freshlyPrimed(key) ? { ...config, revalidateOnMount: false } : config,
  )
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
