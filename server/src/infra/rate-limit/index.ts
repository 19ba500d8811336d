/**
 * Rate-limit policies of the contract (api-contract §1.8) and their algorithms.
 * Unlike upstream, every policy is counted per user (per IP when anonymous), so one client can
 * never use up a limit for everyone (decisions.md item 3).
 */
export type Policy =
  /** Token bucket: starts full, `refill` tokens come back every `periodMs`. */
  | { kind: 'bucket'; capacity: number; refill: number; periodMs: number }
  /** Sliding window of `segments` equal parts: at most `permits` requests per `windowMs`. */
  | { kind: 'window'; permits: number; windowMs: number; segments: number }

export const policies = {
  Global: { kind: 'window', permits: 150, windowMs: 60_000, segments: 6 },
  Register: { kind: 'window', permits: 20, windowMs: 150_000, segments: 5 },
  Query: { kind: 'bucket', capacity: 100, refill: 10, periodMs: 10_000 },
  PowChallenge: { kind: 'bucket', capacity: 40, refill: 5, periodMs: 30_000 },
  Container: { kind: 'bucket', capacity: 120, refill: 30, periodMs: 10_000 },
  Submit: { kind: 'bucket', capacity: 100, refill: 50, periodMs: 5_000 },
} as const satisfies Record<string, Policy>

export type PolicyName = keyof typeof policies

export interface BucketState {
  tokens: number
  /** Start of the current refill period. */
  since: number
}
export interface WindowState {
  /** Requests counted in each segment, oldest first, ending with the current one. */
  counts: number[]
  /** Start of the current (last) segment. */
  since: number
}

export interface Verdict {
  allowed: boolean
  /** When refused: how long until a request could pass. */
  retryAfterMs: number
}

export function takeToken(
  state: BucketState | undefined,
  p: Extract<Policy, { kind: 'bucket' }>,
  now: number,
): [BucketState, Verdict] {
  const s = state ?? { tokens: p.capacity, since: now }
  const periods = Math.floor((now - s.since) / p.periodMs)
  let tokens = s.tokens
  let since = s.since
  if (periods > 0) {
    tokens = Math.min(p.capacity, tokens + periods * p.refill)
    since += periods * p.periodMs
  }
  if (tokens > 0)
    return [
      { tokens: tokens - 1, since },
      { allowed: true, retryAfterMs: 0 },
    ]
  return [
    { tokens, since },
    { allowed: false, retryAfterMs: since + p.periodMs - now },
  ]
}

export function countInWindow(
  state: WindowState | undefined,
  p: Extract<Policy, { kind: 'window' }>,
  now: number,
): [WindowState, Verdict] {
  const segmentMs = p.windowMs / p.segments
  let counts = state?.counts ?? new Array(p.segments).fill(0)
  let since = state?.since ?? now
  const elapsed = Math.floor((now - since) / segmentMs)
  if (elapsed > 0) {
    counts =
      elapsed >= p.segments
        ? new Array(p.segments).fill(0)
        : [...counts.slice(elapsed), ...new Array(elapsed).fill(0)]
    since += elapsed * segmentMs
  }
  const used = counts.reduce((a, b) => a + b, 0)
  if (used < p.permits) {
    const next = [...counts]
    next[next.length - 1]! += 1
    return [
      { counts: next, since },
      { allowed: true, retryAfterMs: 0 },
    ]
  }
  // Room appears when the oldest non-empty segment slides out of the window.
  const oldest = counts.findIndex((c) => c > 0)
  return [
    { counts, since },
    { allowed: false, retryAfterMs: since + (oldest + 1) * segmentMs - now },
  ]
}

/** One policy a request is counted against, for one client. */
export interface Check {
  policy: PolicyName
  key: string
}

/** Where limiter state lives: in process now, Redis when replicas share limits. */
export interface RateLimitStore {
  hit(policy: PolicyName, key: string, now: number): Promise<Verdict>
  /**
   * Counts one request against each check in order; the first refusal ends it (later checks
   * are not counted) and names its policy. With Redis this is one round trip.
   */
  hitAll(checks: readonly Check[], now: number): Promise<Verdict & { policy?: PolicyName }>
  close(): void
}

export function createMemoryRateLimitStore(): RateLimitStore {
  const state = new Map<string, BucketState | WindowState>()
  // Forget idle clients: any state older than the longest window is back to "full".
  const sweep = setInterval(() => {
    const cutoff = Date.now() - 300_000
    for (const [key, s] of state) if (s.since < cutoff) state.delete(key)
  }, 60_000)
  sweep.unref()
  const hit = (name: PolicyName, key: string, now: number): Verdict => {
    const p: Policy = policies[name]
    const id = `${name}:${key}`
    if (p.kind === 'bucket') {
      const [next, verdict] = takeToken(state.get(id) as BucketState | undefined, p, now)
      state.set(id, next)
      return verdict
    }
    const [next, verdict] = countInWindow(state.get(id) as WindowState | undefined, p, now)
    state.set(id, next)
    return verdict
  }
  return {
    hit: async (name, key, now) => hit(name, key, now),
    async hitAll(checks, now) {
      for (const { policy, key } of checks) {
        const verdict = hit(policy, key, now)
        if (!verdict.allowed) return { ...verdict, policy }
      }
      return { allowed: true, retryAfterMs: 0 }
    },
    close() {
      clearInterval(sweep)
    },
  }
}
