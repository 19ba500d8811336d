import { useSWRConfig } from 'swr'
import { clearCache } from '@/api/cache'
import { api, unwrap } from '@/api/client'
import { useApi } from '@/api/hooks'
import type { Ok, Role } from '@/api/types'

export type Profile = Ok<'/api/account/profile'>

const ROLE_RANK: Record<Role, number> = { Banned: 0, User: 1, Monitor: 2, Admin: 3 }

/** Whether `role` is at least `needed` (Banned < User < Monitor < Admin). */
export function hasRole(role: Role | undefined, needed: Role): boolean {
  return role !== undefined && ROLE_RANK[role] >= ROLE_RANK[needed]
}

export const PROFILE_KEY = '/api/account/profile'

/**
 * The signed-in user, or `user: undefined` once the server says 401 (anonymous) or 403
 * (banned). Never polled; retried a few times on other errors only.
 */
export function useUser() {
  const { data, error, isLoading, mutate } = useApi('/api/account/profile', undefined, {
    refreshInterval: 0,
    revalidateOnFocus: false,
    errorRetryCount: 5,
    errorRetryInterval: 10_000,
    onErrorRetry(err, _key, config, revalidate, { retryCount }) {
      if (err.httpStatus === 401 || err.httpStatus === 403) return
      if (retryCount >= (config.errorRetryCount ?? 5)) return
      setTimeout(() => revalidate({ retryCount }), config.errorRetryInterval)
    },
  })
  const signedOut = error?.httpStatus === 401 || error?.httpStatus === 403
  return {
    user: signedOut ? undefined : data,
    banned: error?.httpStatus === 403,
    /** True until the first answer (or the cached copy) is known. */
    isLoading: isLoading && !data,
    error: signedOut ? undefined : error,
    mutate,
  }
}

/** Logs out and forgets every cached response, so nothing stays behind on a shared computer. */
export function useLogout() {
  const { mutate } = useSWRConfig()
  return async () => {
    try {
      await unwrap(api.POST('/api/account/logout'))
    } finally {
      await clearCache()
      await mutate(() => true, undefined, { revalidate: false })
      await mutate(PROFILE_KEY)
    }
  }
}
