import { describe, expect, it } from 'vitest'
import { readApiToken, signApiToken } from './api-token.ts'
import { newGameKeys } from './keys.ts'

const keys = newGameKeys()
const payload = { jti: '0190f3a0-0000-7000-8000-000000000001', iat: 1_800_000_000 }

describe(readApiToken, () => {
  it('reads back what was signed, in the contract’s two-part form', () => {
    const token = signApiToken(payload, keys)
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual(payload)
    expect(readApiToken(token, keys)).toEqual(payload)
  })
  it('refuses another key’s signature, a changed payload and malformed strings', () => {
    const token = signApiToken(payload, keys)
    expect(readApiToken(token, newGameKeys())).toBeNull()
    const forged = `${Buffer.from(JSON.stringify({ ...payload, jti: 'x' })).toString('base64url')}.${token.split('.')[1]}`
    expect(readApiToken(forged, keys)).toBeNull()
    for (const bad of ['', 'a', 'a.b.c', `${token}.x`, 'x'.repeat(600), '!!.??'])
      expect(readApiToken(bad, keys)).toBeNull()
  })
  it('refuses an expired token', () => {
    const token = signApiToken({ ...payload, exp: 1_900_000_000 }, keys)
    expect(readApiToken(token, keys, 1_899_999_999_000)).not.toBeNull()
    expect(readApiToken(token, keys, 1_900_000_000_000)).toBeNull()
  })
})
