/** Team invite codes: `<team name>:<team id>:<32 lowercase hex token>` (api-contract §2.9). */
export const formatInviteCode = (name: string, id: number, token: string) => `${name}:${id}:${token}`

/**
 * Reads the team id and token from the end of a code; the name part is only for people.
 * Null when the code does not end in `:<digits>:<32 hex>`.
 */
export function parseInviteCode(code: string): { teamId: number; token: string } | null {
  const match = /:(\d{1,9}):([0-9a-f]{32})$/.exec(code.trim())
  if (!match) return null
  return { teamId: Number(match[1]), token: match[2]! }
}
