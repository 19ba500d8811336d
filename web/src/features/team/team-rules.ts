import { parseInviteCode } from '@engine/invite.ts'

/** Server limits (api-contract §2.0 `TeamUpdateModel`, §2.9). */
export const TEAM_NAME_MAX = 20
export const TEAM_BIO_MAX = 72
/** One person may captain at most this many teams. */
export const MAX_CAPTAINED = 3

interface TeamLike {
  members: { id: string; captain: boolean }[]
}

/**
 * Whether a code looks like `<team name>:<team id>:<32 lowercase hex>`: the server's own parser
 * reads the id and token from the end, and the name part must not be empty.
 */
export function isInviteCode(code: string): boolean {
  const trimmed = code.trim()
  const parsed = parseInviteCode(trimmed)
  if (!parsed) return false
  const nameLength = trimmed.length - `:${parsed.teamId}:${parsed.token}`.length
  return nameLength > 0
}

/** The code with its secret token hidden, for showing it masked by default. */
export function maskInviteCode(code: string): string {
  return code.replace(/[0-9a-f]{32}$/, '•'.repeat(12))
}

export const captainOf = <T extends TeamLike>(team: T) => team.members.find((m) => m.captain)

export const isCaptain = (team: TeamLike, userId: string | undefined) =>
  !!userId && team.members.some((m) => m.captain && m.id === userId)

/** How many of these teams the user captains (creation stops at {@link MAX_CAPTAINED}). */
export const captainedCount = (teams: TeamLike[], userId: string | undefined) =>
  teams.filter((t) => isCaptain(t, userId)).length

/** The captain first, then the others in the server's order. */
export function sortMembers<M extends { captain: boolean }>(members: M[]): M[] {
  return [...members].sort((a, b) => Number(b.captain) - Number(a.captain))
}
