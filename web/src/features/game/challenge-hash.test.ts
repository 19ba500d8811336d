import { describe, expect, it } from 'vitest'
import { challengeHash, parseChallengeHash } from './challenge-hash'

describe(challengeHash, () => {
  it('joins the id and the title with dashes for spaces', () => {
    expect(challengeHash(12, 'Baby  heap 2')).toBe('#12-Baby-heap-2')
  })

  it('is the id alone when the title is blank', () => {
    expect(challengeHash(3, '  ')).toBe('#3')
  })
})

describe(parseChallengeHash, () => {
  it('reads the id back from a hash it built', () => {
    expect(parseChallengeHash(challengeHash(42, 'Ancient cipher'))).toBe(42)
  })

  it('accepts a hash without the leading # or without a title', () => {
    expect(parseChallengeHash('7-x')).toBe(7)
    expect(parseChallengeHash('#7')).toBe(7)
  })

  it('reads percent-encoded titles (the browser encodes non-ASCII)', () => {
    expect(parseChallengeHash('#9-%E5%AF%86%E7%A0%81')).toBe(9)
  })

  it('names no challenge for other hashes', () => {
    expect(parseChallengeHash('')).toBeNull()
    expect(parseChallengeHash('#')).toBeNull()
    expect(parseChallengeHash('#top')).toBeNull()
    expect(parseChallengeHash('#12abc')).toBeNull()
    expect(parseChallengeHash('#0')).toBeNull()
  })
})
