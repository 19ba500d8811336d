import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checkPow, leadingZeroBits, newPowChallenge, parsePowAnswer, solvePow } from './pow.ts'

describe(leadingZeroBits, () => {
  it.each([
    [[0xff], 0],
    [[0x80], 0],
    [[0x7f], 1],
    [[0x01], 7],
    [[0x00, 0x80], 8],
    [[0x00, 0x00, 0x10], 19],
    [[0x00, 0x00], 16],
  ])('counts %j as %i zero bits', (bytes, bits) => {
    expect(leadingZeroBits(Uint8Array.from(bytes))).toBe(bits)
  })
})

describe(checkPow, () => {
  it('accepts a solved challenge and rejects the same answer for a harder difficulty', () => {
    const { challenge } = newPowChallenge()
    const answer = solvePow(challenge, 12)
    const digest = createHash('sha256')
      .update(Buffer.from(challenge + answer, 'hex'))
      .digest()
    const bits = leadingZeroBits(digest)
    expect(bits).toBeGreaterThanOrEqual(12)
    expect(checkPow(challenge, answer, 12)).toBe(true)
    expect(checkPow(challenge, answer, bits + 1)).toBe(false)
  })

  it('rejects answers that are not 16 hex characters', () => {
    expect(checkPow('00112233445566aa', 'zz', 0)).toBe(false)
    expect(checkPow('00112233445566aa', '0011223344556677889', 0)).toBe(false)
  })
})

describe(parsePowAnswer, () => {
  it('splits a well-formed answer', () => {
    expect(parsePowAnswer('0123456789ab:00112233445566FF')).toEqual({
      id: '0123456789ab',
      answer: '00112233445566ff',
    })
  })
  it.each(['', 'abc', '0123456789ab', '0123456789ab:short', 'a:b:c', '0123456789ab:zz112233445566ff'])(
    'refuses %j',
    (value) => expect(parsePowAnswer(value)).toBeNull(),
  )
})
