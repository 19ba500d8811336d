import { describe, expect, it } from 'vitest'
import {
  type ApiToken,
  exampleCommand,
  expiryOf,
  sortTokens,
  toCreate,
  tokenState,
  validateTokenForm,
} from './token-form'

const NOW = Date.UTC(2025, 3, 1, 12)
const DAY = 86_400_000

const token = (over: Partial<ApiToken> = {}): ApiToken => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'scoreboard bot',
  creatorId: null,
  createdAt: NOW - DAY,
  expiresAt: null,
  lastUsedAt: null,
  isRevoked: false,
  creator: 'Admin',
  ...over,
})

describe(tokenState, () => {
  it('calls a token without expiry active until it is revoked', () => {
    expect(tokenState(token(), NOW)).toBe('active')
    expect(tokenState(token({ isRevoked: true }), NOW)).toBe('revoked')
  })

  it('calls a token expired from its expiry time on, unless it is revoked', () => {
    expect(tokenState(token({ expiresAt: NOW + 1 }), NOW)).toBe('active')
    expect(tokenState(token({ expiresAt: NOW }), NOW)).toBe('expired')
    expect(tokenState(token({ expiresAt: NOW - DAY, isRevoked: true }), NOW)).toBe('revoked')
  })
})

describe(sortTokens, () => {
  it('puts the newest first without touching the list it was given', () => {
    const list = [
      token({ id: 'a', createdAt: 1 }),
      token({ id: 'b', createdAt: 3 }),
      token({ id: 'c', createdAt: 2 }),
    ]
    expect(sortTokens(list).map((t) => t.id)).toEqual(['b', 'c', 'a'])
    expect(list[0]!.id).toBe('a')
  })
})

describe(validateTokenForm, () => {
  it('accepts a name and a whole number of days from 0 to 36500', () => {
    for (const expiresIn of [0, 30, 36_500]) expect(validateTokenForm({ name: 'bot', expiresIn })).toEqual({})
  })

  it('needs a name of at most 128 characters', () => {
    expect(validateTokenForm({ name: '  ', expiresIn: 0 })).toEqual({
      name: 'admin.tokens.error.name_required',
    })
    expect(validateTokenForm({ name: 'x'.repeat(129), expiresIn: 0 })).toEqual({
      name: 'admin.tokens.error.name_long',
    })
  })

  it('rejects an empty, negative, fractional or too long expiry', () => {
    for (const expiresIn of ['', -1, 1.5, 36_501])
      expect(validateTokenForm({ name: 'bot', expiresIn })).toEqual({
        expiresIn: 'admin.tokens.error.expiry',
      })
  })
})

describe(toCreate, () => {
  it('trims the name and sends 0 days as "never expires"', () => {
    expect(toCreate({ name: ' bot ', expiresIn: 0 })).toEqual({ name: 'bot', expiresIn: null })
    expect(toCreate({ name: 'bot', expiresIn: 7 })).toEqual({ name: 'bot', expiresIn: 7 })
  })
})

describe(expiryOf, () => {
  it('adds whole days to now, or gives null for never', () => {
    expect(expiryOf(7, NOW)).toBe(NOW + 7 * DAY)
    expect(expiryOf(0, NOW)).toBeNull()
    expect(expiryOf('', NOW)).toBeNull()
  })
})

describe(exampleCommand, () => {
  it('reads a game’s events with the token as a bearer header', () => {
    expect(exampleCommand('p.s', 'https://ctf.example')).toBe(
      'curl -H "Authorization: Bearer p.s" https://ctf.example/api/game/1/events',
    )
  })
})
