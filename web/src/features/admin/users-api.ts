import useSWR from 'swr'
import { api, unwrap } from '@/api/client'
import type { ApiError } from '@/api/error'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Body, Ok } from '@/api/types'
import { resolveUrl } from '@/api/url'
import { PEOPLE_PAGE, skipOf } from './admin-lists'
import type { UserUpdate } from './user-form'

export type UserPage = Ok<'/api/admin/users'>
export type UserCreateBatch = Body<'/api/admin/users', 'post'>

const USERS = '/api/admin/users'
const SEARCH = '/api/admin/users/search'
/** Teams show their members, so user changes refresh them too. */
const TEAMS = '/api/admin/teams'

/** Admin lists refresh after a change and when the admin comes back, never on a timer. */
export const QUIET = { ...ONCE, revalidateOnFocus: true, keepPreviousData: true }

/**
 * A page of users (30, by id), or, with a hint, up to 30 users matching it (`POST …/search`).
 * The search is keyed under `/api/admin/users/search?hint=…`, so refreshing the users refreshes it.
 */
export function useUserList(page: number, hint: string | null) {
  const list = useApi(
    hint === null ? USERS : null,
    { query: { count: PEOPLE_PAGE, skip: skipOf(page, PEOPLE_PAGE) } },
    QUIET,
  )
  const search = useSWR<UserPage, ApiError>(
    hint === null ? null : resolveUrl(SEARCH, { query: { hint } }),
    () => unwrap(api.POST(SEARCH, { params: { query: { hint: hint ?? '' } } })),
    QUIET,
  )
  return hint === null ? list : search
}

const byId = (userid: string) => ({ params: { path: { userid } } })

/** Editing, banning, password resets, deletion and batch creation; each refreshes the lists. */
export function useUserActions() {
  const revalidate = useRevalidate()
  const refreshed = async <T>(pending: Promise<T>, teams = false): Promise<T> => {
    try {
      return await pending
    } finally {
      await revalidate(USERS, ...(teams ? [TEAMS] : []))
    }
  }
  return {
    update: (id: string, body: UserUpdate) =>
      refreshed(unwrap(api.PUT('/api/admin/users/{userid}', { ...byId(id), body }))),
    /** The new password, shown once; the user's sessions end. */
    resetPassword: (id: string) =>
      refreshed(unwrap(api.DELETE('/api/admin/users/{userid}/password', byId(id)))),
    remove: (id: string) => refreshed(unwrap(api.DELETE('/api/admin/users/{userid}', byId(id))), true),
    /** All or nothing: a failing row comes back as a 400 naming it. */
    createBatch: (body: UserCreateBatch) => refreshed(unwrap(api.POST(USERS, { body })), true),
  }
}
