import { fail } from '../../http/errors.ts'
import type { Cache } from '../../infra/cache/index.ts'

const MINUTE = 60_000
/** Wrong passwords from one address before it must wait; the wait doubles each time, to a cap. */
const PAIR_LIMIT = 5
const PAIR_FIRST_LOCK_MS = 30_000
const PAIR_MAX_LOCK_MS = 15 * MINUTE
/** Wrong passwords from everywhere before the account pauses for strangers. */
const ACCOUNT_LIMIT = 30
const ACCOUNT_LOCK_MS = MINUTE
const WINDOW_MS = 10 * MINUTE
/** An address that signed in recently is the user's own: the account-wide pause spares it. */
const KNOWN_MS = 30 * 24 * 60 * MINUTE

interface State {
  count: number
  lockedUntil: number
  /** How many locks in a row (the next one lasts twice as long). */
  level: number
}

/**
 * Slows password guessing against one account. Per account and address, every 5 wrong passwords
 * lock that address out of that account for 30 s, then 1, 2… minutes (at most 15). Per account,
 * 30 wrong passwords in 10 minutes from anywhere pause it for a minute, except for addresses that
 * signed in to it before: an attacker elsewhere cannot keep the user out. Counters live in the
 * shared cache, so replicas count together once the cache is shared.
 */
export function createLoginThrottle(deps: { cache: Cache; now?: () => number }) {
  const now = deps.now ?? Date.now
  const pairKey = (userId: string, ip: string) => `login:pair:${userId}:${ip}`
  const accountKey = (userId: string) => `login:account:${userId}`
  const knownKey = (userId: string, ip: string) => `login:known:${userId}:${ip}`

  async function read(key: string): Promise<State> {
    const raw = await deps.cache.get(key)
    return raw ? (JSON.parse(raw) as State) : { count: 0, lockedUntil: 0, level: 0 }
  }
  const write = (key: string, state: State, ttlMs: number) =>
    deps.cache.set(key, JSON.stringify(state), ttlMs)

  function refuse(until: number): never {
    const seconds = Math.max(1, Math.ceil((until - now()) / 1000))
    throw fail('Account_TooManyAttempts', { params: [seconds], headers: { 'Retry-After': String(seconds) } })
  }

  return {
    /** Refuses the attempt (429, with how long to wait) while this address or the account is paused. */
    async check(userId: string, ip: string): Promise<void> {
      const pair = await read(pairKey(userId, ip))
      if (pair.lockedUntil > now()) refuse(pair.lockedUntil)
      const account = await read(accountKey(userId))
      if (account.lockedUntil > now() && !(await deps.cache.get(knownKey(userId, ip))))
        refuse(account.lockedUntil)
    },

    async failed(userId: string, ip: string): Promise<void> {
      const pair = await read(pairKey(userId, ip))
      pair.count++
      if (pair.count >= PAIR_LIMIT) {
        pair.lockedUntil = now() + Math.min(PAIR_FIRST_LOCK_MS * 2 ** pair.level, PAIR_MAX_LOCK_MS)
        pair.level++
        pair.count = 0
      }
      await write(pairKey(userId, ip), pair, WINDOW_MS + PAIR_MAX_LOCK_MS)
      const account = await read(accountKey(userId))
      account.count++
      if (account.count >= ACCOUNT_LIMIT) {
        account.lockedUntil = now() + ACCOUNT_LOCK_MS
        account.count = 0
      }
      await write(accountKey(userId), account, WINDOW_MS)
    },

    async succeeded(userId: string, ip: string): Promise<void> {
      await deps.cache.take(pairKey(userId, ip))
      await deps.cache.set(knownKey(userId, ip), '1', KNOWN_MS)
    },
  }
}
export type LoginThrottle = ReturnType<typeof createLoginThrottle>
