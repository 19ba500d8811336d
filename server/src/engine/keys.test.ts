import { describe, expect, it } from 'vitest'
import { newGameKeys, signTeamToken, verifyTeamToken } from './keys.ts'

describe(signTeamToken, () => {
  it('signs a token that the game key verifies and another key does not', () => {
    const keys = newGameKeys()
    expect(Buffer.from(keys.publicKey, 'base64')).toHaveLength(32)
    const token = signTeamToken(42, keys)
    expect(token).toMatch(/^42:[A-Za-z0-9+/]+=*$/)
    expect(verifyTeamToken(token, keys.publicKey)).toBe(true)
    expect(verifyTeamToken(token, newGameKeys().publicKey)).toBe(false)
    expect(verifyTeamToken(token.replace(/^42/, '43'), keys.publicKey)).toBe(false)
  })

  it.each([
    ['no colon', 'abc', true],
    ['a non-numeric id', 'x:AAAA', true],
    ['an empty signature', '1:', true],
    ['a non-base64 signature', '1:***', true],
  ])('calls %s malformed', (_, token) => {
    expect(verifyTeamToken(token, newGameKeys().publicKey)).toBeNull()
  })

  it('calls a key that is not 32 bytes of base64 malformed', () => {
    expect(verifyTeamToken('1:AAAA', 'not base64!')).toBeNull()
    expect(verifyTeamToken('1:AAAA', Buffer.alloc(31).toString('base64'))).toBeNull()
  })
})
