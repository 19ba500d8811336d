import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { sha256 } from './sha256'

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')
const utf8 = (s: string) => new TextEncoder().encode(s)

describe(sha256, () => {
  // FIPS 180-4 / NIST example vectors.
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
    [
      'abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu',
      'cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1',
    ],
    [
      'The quick brown fox jumps over the lazy dog',
      'd7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592',
    ],
  ])('hashes %j to the published digest', (input, digest) => {
    expect(hex(sha256(utf8(input)))).toBe(digest)
  })

  it('hashes a million "a" to the published digest', () => {
    const input = new Uint8Array(1_000_000).fill(0x61)
    expect(hex(sha256(input))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0')
  })

  it('agrees with node:crypto at every length around the block boundaries', () => {
    for (let length = 0; length <= 130; length++) {
      const input = Uint8Array.from({ length }, (_, i) => (i * 37 + length) & 0xff)
      expect(hex(sha256(input))).toBe(createHash('sha256').update(input).digest('hex'))
    }
  })
})
