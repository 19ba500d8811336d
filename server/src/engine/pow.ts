import { createHash, randomBytes } from 'node:crypto'

/** HashPow captcha rules (game-engine §9.1): pure functions over bytes and hex. */

/** Leading zero bits of a digest: whole zero bytes count 8, then the zero high bits of the next. */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0
  for (const byte of digest) {
    if (byte === 0) {
      bits += 8
      continue
    }
    return bits + Math.clz32(byte) - 24
  }
  return bits
}

const HEX16 = /^[0-9a-fA-F]{16}$/

/** True when SHA-256(challenge ‖ answer) has at least `difficulty` leading zero bits. */
export function checkPow(challengeHex: string, answerHex: string, difficulty: number): boolean {
  if (!HEX16.test(challengeHex) || !HEX16.test(answerHex)) return false
  const digest = createHash('sha256')
    .update(Buffer.from(challengeHex, 'hex'))
    .update(Buffer.from(answerHex, 'hex'))
    .digest()
  return leadingZeroBits(digest) >= difficulty
}

/** Splits the client's `"<id>:<16 hex answer>"`; null when it is not of that shape. */
export function parsePowAnswer(value: string): { id: string; answer: string } | null {
  const parts = value.split(':')
  if (parts.length !== 2) return null
  const [id, answer] = parts as [string, string]
  if (!/^[0-9a-f]{12}$/.test(id) || !HEX16.test(answer)) return null
  return { id, answer: answer.toLowerCase() }
}

export function newPowChallenge(): { id: string; challenge: string } {
  return { id: randomBytes(6).toString('hex'), challenge: randomBytes(8).toString('hex') }
}

/**
 * Finds an answer the way the reference client does: 4 random bytes, then a 4-byte big-endian
 * counter. Used by tests and tools; the browser runs its own copy in a Web Worker.
 */
export function solvePow(challengeHex: string, difficulty: number): string {
  const prefix = randomBytes(4)
  const nonce = Buffer.alloc(8)
  prefix.copy(nonce, 0)
  const challenge = Buffer.from(challengeHex, 'hex')
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    nonce.writeUInt32BE(counter, 4)
    const digest = createHash('sha256').update(challenge).update(nonce).digest()
    if (leadingZeroBits(digest) >= difficulty) return nonce.toString('hex')
  }
  throw new Error('no answer found')
}
