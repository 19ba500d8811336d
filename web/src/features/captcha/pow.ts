import { compress, INITIAL_STATE } from './sha256'

/**
 * HashPow (api-contract §1.12): find an 8-byte answer so that SHA-256(challenge ‖ answer) starts
 * with `difficulty` zero bits; the form sends `<id>:<answer as 16 hex chars>`. These are the
 * pure parts; `pow.worker.ts` runs `solvePow` off the main thread.
 */

/** Leading zero bits of a digest, byte by byte (the server's count). */
export function leadingZeroBits(digest: Uint8Array): number {
  let bits = 0
  for (const byte of digest) {
    if (byte !== 0) return bits + Math.clz32(byte) - 24
    bits += 8
  }
  return bits
}

/** The same count over big-endian 32-bit words (the hash state), without building bytes. */
export function leadingZeroBitsOfWords(words: ArrayLike<number>): number {
  let bits = 0
  for (let i = 0; i < words.length; i++) {
    const word = words[i]! >>> 0
    if (word !== 0) return bits + Math.clz32(word)
    bits += 32
  }
  return bits
}

const HEX16 = /^[0-9a-f]{16}$/i

/** The challenge's 8 bytes as two big-endian words; null when it is not 16 hex characters. */
export function challengeWords(challengeHex: string): [number, number] | null {
  if (!HEX16.test(challengeHex)) return null
  return [Number.parseInt(challengeHex.slice(0, 8), 16), Number.parseInt(challengeHex.slice(8), 16)]
}

const hex8 = (word: number) => (word >>> 0).toString(16).padStart(8, '0')

/** The answer's 8 bytes (two big-endian words) as 16 lowercase hex characters. */
export function answerHex(high: number, low: number): string {
  return hex8(high) + hex8(low)
}

/** What the form sends as `challenge`: `<id>:<16 hex>`. */
export function encodeAnswer(id: string, answer: string): string {
  return `${id}:${answer}`
}

/**
 * SHA-256 of the 16-byte message challenge ‖ answer, left in `state`. One block: the message,
 * the 0x80 terminator, zeros, and the bit length 128.
 */
export function powDigest(
  challenge: readonly [number, number],
  high: number,
  low: number,
  state: Uint32Array,
  w: Uint32Array,
): void {
  w[0] = challenge[0]
  w[1] = challenge[1]
  w[2] = high
  w[3] = low
  w[4] = 0x80000000
  w.fill(0, 5, 15)
  w[15] = 128
  state.set(INITIAL_STATE)
  compress(state, w)
}

export interface SolveOptions {
  /** The answer's first 4 bytes; random in the browser so two tabs never search the same space. */
  prefix: number
  /** Called every `reportEvery` attempts with the number of hashes so far. */
  onProgress?: (hashes: number) => void
  reportEvery?: number
}

/**
 * Searches answers `prefix ‖ counter` (counter from 0) until one has enough leading zero bits.
 * Returns the answer in hex and how many hashes it took.
 */
export function solvePow(
  challengeHex: string,
  difficulty: number,
  { prefix, onProgress, reportEvery = 1 << 16 }: SolveOptions,
): { answer: string; hashes: number } {
  const challenge = challengeWords(challengeHex)
  if (!challenge) throw new Error(`not a HashPow challenge: ${challengeHex}`)
  const state = new Uint32Array(8)
  const w = new Uint32Array(64)
  for (let counter = 0; counter <= 0xffffffff; counter++) {
    powDigest(challenge, prefix, counter, state, w)
    if (leadingZeroBitsOfWords(state) >= difficulty)
      return { answer: answerHex(prefix, counter), hashes: counter + 1 }
    if (onProgress && (counter + 1) % reportEvery === 0) onProgress(counter + 1)
  }
  throw new Error('no answer in this prefix')
}

/** "1.23 MH/s"-style rate from a count and milliseconds. */
export function hashRate(hashes: number, ms: number): { value: number; unit: 'H/s' | 'kH/s' | 'MH/s' } {
  const perSecond = ms > 0 ? (hashes * 1000) / ms : 0
  if (perSecond >= 1e6) return { value: perSecond / 1e6, unit: 'MH/s' }
  if (perSecond >= 1e3) return { value: perSecond / 1e3, unit: 'kH/s' }
  return { value: perSecond, unit: 'H/s' }
}
