/**
 * An issued but unused HashPow challenge, kept in localStorage (`pow-chall`) for 4 minutes so
 * moving between the login and register pages does not fetch and solve a new one each time.
 * The server forgets challenges after 5 minutes; the minute's margin covers the solving and
 * the submit. A challenge is dropped as soon as a form sends it (single use).
 */
export interface CachedChallenge {
  id: string
  challenge: string
  difficulty: number
  /** When the server issued it (epoch ms). */
  issuedAt: number
  /** The answer, once found. */
  answer?: string
}

export const POW_CACHE_KEY = 'pow-chall'
export const POW_CACHE_MS = 4 * 60_000

/** The cached challenge when it is still young enough to send, else null. */
export function freshChallenge(raw: string | null, now: number): CachedChallenge | null {
  if (!raw) return null
  try {
    const value = JSON.parse(raw) as Partial<CachedChallenge>
    if (
      typeof value.id !== 'string' ||
      typeof value.challenge !== 'string' ||
      typeof value.difficulty !== 'number' ||
      typeof value.issuedAt !== 'number'
    )
      return null
    const age = now - value.issuedAt
    if (age < 0 || age >= POW_CACHE_MS) return null
    return value as CachedChallenge
  } catch {
    return null
  }
}

export function readChallenge(now = Date.now()): CachedChallenge | null {
  try {
    return freshChallenge(localStorage.getItem(POW_CACHE_KEY), now)
  } catch {
    return null
  }
}

export function storeChallenge(value: CachedChallenge): void {
  try {
    localStorage.setItem(POW_CACHE_KEY, JSON.stringify(value))
  } catch {}
}

export function forgetChallenge(id?: string): void {
  try {
    if (id === undefined || readChallenge()?.id === id) localStorage.removeItem(POW_CACHE_KEY)
  } catch {}
}
