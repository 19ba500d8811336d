import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import {
  answerHex,
  challengeWords,
  encodeAnswer,
  hashRate,
  leadingZeroBits,
  leadingZeroBitsOfWords,
  powDigest,
  solvePow,
} from './pow'

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex, 'hex'))

describe(leadingZeroBits, () => {
  it.each([
    ['ff', 0],
    ['80', 0],
    ['7f', 1],
    ['01', 7],
    ['00ff', 8],
    ['0010', 11],
    ['000001', 23],
    ['00000000', 32],
    ['0000000080', 32],
    ['', 0],
  ])('counts %s as %i zero bits', (hex, bits) => {
    expect(leadingZeroBits(bytes(hex))).toBe(bits)
  })
})

describe(leadingZeroBitsOfWords, () => {
  it('counts like the byte version over the same digest', () => {
    for (const hex of ['ff000000', '00010000', '0000000000400000', '0000000000000000ffffffff']) {
      const digest = bytes(hex)
      const words = Array.from({ length: digest.length / 4 }, (_, i) =>
        new DataView(digest.buffer).getUint32(i * 4),
      )
      expect(leadingZeroBitsOfWords(words)).toBe(leadingZeroBits(digest))
    }
  })

  it('treats negative (signed) words as unsigned', () => {
    expect(leadingZeroBitsOfWords([-1])).toBe(0)
    expect(leadingZeroBitsOfWords([0, 0x7fffffff | 0])).toBe(33)
  })
})

describe('answer encoding', () => {
  it('writes both words big-endian, zero-padded, in lower case', () => {
    expect(answerHex(0xdeadbeef, 1)).toBe('deadbeef00000001')
    expect(answerHex(0, 0)).toBe('0000000000000000')
    expect(answerHex(-1, 0xabc)).toBe('ffffffff00000abc')
  })

  it('joins the challenge id and the answer with a colon', () => {
    expect(encodeAnswer('0123456789ab', 'deadbeef00000001')).toBe('0123456789ab:deadbeef00000001')
  })

  it('reads a challenge as two words and rejects anything but 16 hex characters', () => {
    expect(challengeWords('00000001ffffffff')).toEqual([1, 0xffffffff])
    expect(challengeWords('00000001fffffff')).toBeNull()
    expect(challengeWords('zz000001ffffffff')).toBeNull()
  })
})

describe(powDigest, () => {
  it('equals SHA-256 of the challenge bytes followed by the answer bytes', () => {
    const state = new Uint32Array(8)
    const w = new Uint32Array(64)
    const challenge = '0011223344556677'
    powDigest(challengeWords(challenge)!, 0x8899aabb, 0xccddeeff, state, w)
    const ours = Array.from(state, (x) => (x >>> 0).toString(16).padStart(8, '0')).join('')
    const expected = createHash('sha256')
      .update(bytes(challenge))
      .update(bytes('8899aabbccddeeff'))
      .digest('hex')
    expect(ours).toBe(expected)
  })
})

describe(solvePow, () => {
  it('finds an answer the server would accept', () => {
    const challenge = 'a1b2c3d4e5f60718'
    const { answer, hashes } = solvePow(challenge, 12, { prefix: 0x01020304 })
    expect(answer).toMatch(/^01020304[0-9a-f]{8}$/)
    expect(hashes).toBe(Number.parseInt(answer.slice(8), 16) + 1)
    const digest = createHash('sha256').update(bytes(challenge)).update(bytes(answer)).digest()
    expect(leadingZeroBits(digest)).toBeGreaterThanOrEqual(12)
  })

  it('reports progress while it searches', () => {
    const seen: number[] = []
    solvePow('ffffffffffffffff', 14, { prefix: 7, reportEvery: 1000, onProgress: (n) => seen.push(n) })
    expect(seen.every((n, i) => n === (i + 1) * 1000)).toBe(true)
  })

  it('refuses a malformed challenge', () => {
    expect(() => solvePow('nothex', 8, { prefix: 0 })).toThrow()
  })
})

describe(hashRate, () => {
  it.each([
    [500, 1000, 500, 'H/s'],
    [2_500_000, 1000, 2.5, 'MH/s'],
    [30_000, 2000, 15, 'kH/s'],
    [10, 0, 0, 'H/s'],
  ])('rates %i hashes in %i ms as %d %s', (hashes, ms, value, unit) => {
    expect(hashRate(hashes, ms)).toEqual({ value, unit })
  })
})
