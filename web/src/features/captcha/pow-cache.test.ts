import { describe, expect, it } from 'vitest'
import { freshChallenge, POW_CACHE_MS } from './pow-cache'

const entry = { id: '0123456789ab', challenge: '0011223344556677', difficulty: 18, issuedAt: 1_000_000 }

describe(freshChallenge, () => {
  it('keeps a challenge younger than four minutes', () => {
    expect(freshChallenge(JSON.stringify(entry), entry.issuedAt + POW_CACHE_MS - 1)).toEqual(entry)
  })

  it('drops a challenge four minutes old or older', () => {
    expect(freshChallenge(JSON.stringify(entry), entry.issuedAt + POW_CACHE_MS)).toBeNull()
  })

  it('drops a challenge from the future (a clock change)', () => {
    expect(freshChallenge(JSON.stringify(entry), entry.issuedAt - 1)).toBeNull()
  })

  it('ignores missing, malformed or incomplete entries', () => {
    expect(freshChallenge(null, 0)).toBeNull()
    expect(freshChallenge('{oops', 0)).toBeNull()
    expect(freshChallenge(JSON.stringify({ ...entry, id: 5 }), entry.issuedAt)).toBeNull()
  })
})
