import type { Body, Ok } from '@/api/types'

export type ApiToken = Ok<'/api/tokens'>[number]
export type TokenCreate = Body<'/api/tokens', 'post'>

/** Limits of the server's `ApiTokenCreateModel`. */
export const NAME_MAX = 128
export const EXPIRY_MAX_DAYS = 36_500
const DAY = 24 * 60 * 60 * 1000

/** Whether a token is accepted now: revoked wins over expired (a restore would not help then). */
export type TokenState = 'active' | 'revoked' | 'expired'

export function tokenState(token: Pick<ApiToken, 'isRevoked' | 'expiresAt'>, now: number): TokenState {
  if (token.isRevoked) return 'revoked'
  if (token.expiresAt !== null && token.expiresAt <= now) return 'expired'
  return 'active'
}

/** Newest first: the token just made is on top. */
export function sortTokens(tokens: readonly ApiToken[]): ApiToken[] {
  return [...tokens].sort((a, b) => b.createdAt - a.createdAt)
}

/** The create form as typed (NumberInput gives '' while empty). */
export interface TokenForm {
  name: string
  expiresIn: number | string
}

export type TokenFormErrors = Partial<Record<keyof TokenForm, string>>

/** Translation keys per field; empty when the form can be sent. */
export function validateTokenForm(form: TokenForm): TokenFormErrors {
  const errors: TokenFormErrors = {}
  const name = form.name.trim()
  if (!name) errors.name = 'admin.tokens.error.name_required'
  else if (name.length > NAME_MAX) errors.name = 'admin.tokens.error.name_long'
  const days = form.expiresIn
  if (typeof days !== 'number' || !Number.isInteger(days) || days < 0 || days > EXPIRY_MAX_DAYS)
    errors.expiresIn = 'admin.tokens.error.expiry'
  return errors
}

/** The body of `POST /api/tokens`: 0 days means it never expires. */
export function toCreate(form: TokenForm): TokenCreate {
  const days = Number(form.expiresIn)
  return { name: form.name.trim(), expiresIn: days > 0 ? days : null }
}

/** When a token made now with this form would expire (as the server counts it), or null: never. */
export function expiryOf(expiresIn: number | string, now: number): number | null {
  return typeof expiresIn === 'number' && expiresIn > 0 ? now + expiresIn * DAY : null
}

/** A shell line that reads a game's events with the token, for the one time it is shown. */
export function exampleCommand(token: string, origin: string, gameId: number | string = 1): string {
  return `curl -H "Authorization: Bearer ${token}" ${origin}/api/game/${gameId}/events`
}
