import useSWR from 'swr'
import { api, unwrap } from '@/api/client'
import type { ApiError } from '@/api/error'
import { useApi, useRevalidate } from '@/api/hooks'
import type { Ok } from '@/api/types'
import { resolveUrl } from '@/api/url'
import { PEOPLE_PAGE, skipOf } from './admin-lists'
import type { TeamUpdate } from './user-form'
import { QUIET } from './users-api'

export type TeamPage = Ok<'/api/admin/teams'>

const TEAMS = '/api/admin/teams'
const SEARCH = '/api/admin/teams/search'
/** Public views that show teams. */
const PUBLIC = ['/api/team']

/** A page of teams with their members (30, by id), or up to 30 whose name (or id) matches the hint. */
export function useTeamList(page: number, hint: string | null) {
  const list = useApi(
    hint === null ? TEAMS : null,
    { query: { count: PEOPLE_PAGE, skip: skipOf(page, PEOPLE_PAGE) } },
    QUIET,
  )
  const search = useSWR<TeamPage, ApiError>(
    hint === null ? null : resolveUrl(SEARCH, { query: { hint } }),
    () => unwrap(api.POST(SEARCH, { params: { query: { hint: hint ?? '' } } })),
    QUIET,
  )
  return hint === null ? list : search
}

const byId = (id: number) => ({ params: { path: { id } } })

/** Locking, editing and deleting teams; each refreshes the lists. */
export function useTeamActions() {
  const revalidate = useRevalidate()
  const refreshed = async <T>(pending: Promise<T>): Promise<T> => {
    try {
      return await pending
    } finally {
      await revalidate(TEAMS, ...PUBLIC)
    }
  }
  return {
    update: (id: number, body: TeamUpdate) =>
      refreshed(unwrap(api.PUT('/api/admin/teams/{id}', { ...byId(id), body }))),
    setLocked: (id: number, locked: boolean) =>
      refreshed(unwrap(api.PUT('/api/admin/teams/{id}', { ...byId(id), body: { locked } }))),
    remove: (id: number) => refreshed(unwrap(api.DELETE('/api/admin/teams/{id}', byId(id)))),
  }
}
