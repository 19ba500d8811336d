import { api, unwrap } from '@/api/client'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Body, Ok } from '@/api/types'

export type Team = Ok<'/api/team'>[number]
export type TeamMember = Team['members'][number]

const TEAMS_KEY = '/api/team'

/** The signed-in user's teams. Refetched on focus: a team mate may have changed something. */
export function useMyTeams() {
  return useApi('/api/team', undefined, { refreshInterval: 0, revalidateOnFocus: true })
}

/** A team's invite code (captain only); fetched once per opening of the manage view. */
export function useInviteCode(id: number, enabled: boolean) {
  return useApi(enabled ? '/api/team/{id}/invite' : null, { path: { id } }, ONCE)
}

/**
 * Every change to a team. Each one refreshes `/api/team` and everything under it (the invite
 * code included), so the cards and the manage view show the server's state afterwards.
 */
export function useTeamActions() {
  const revalidate = useRevalidate()
  const refresh = () => revalidate(TEAMS_KEY)
  const path = (id: number) => ({ params: { path: { id } } })
  const run = async <T>(pending: Promise<T>) => {
    const result = await pending
    await refresh()
    return result
  }
  return {
    refresh,
    create: (body: Body<'/api/team', 'post'>) => run(unwrap(api.POST('/api/team', { body }))),
    /** The body is the code itself as a JSON string. */
    join: (code: string) => run(unwrap(api.POST('/api/team/accept', { body: code.trim() }))),
    update: (id: number, body: Body<'/api/team/{id}', 'put'>) =>
      run(unwrap(api.PUT('/api/team/{id}', { ...path(id), body }))),
    regenerateInvite: (id: number) => run(unwrap(api.PUT('/api/team/{id}/invite', path(id)))),
    transfer: (id: number, newCaptainId: string) =>
      run(unwrap(api.PUT('/api/team/{id}/transfer', { ...path(id), body: { newCaptainId } }))),
    kick: (id: number, userId: string) =>
      run(unwrap(api.POST('/api/team/{id}/kick/{userId}', { params: { path: { id, userId } } }))),
    leave: (id: number) => run(unwrap(api.POST('/api/team/{id}/leave', path(id)))),
    disband: (id: number) => run(unwrap(api.DELETE('/api/team/{id}', path(id)))),
  }
}

/** Where the captain uploads the team's avatar (multipart field `file`). */
export const teamAvatarUrl = (id: number) => `/api/team/${id}/avatar`
