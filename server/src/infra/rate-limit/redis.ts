import type { RedisConnections } from '../redis/index.ts'
import { createMemoryRateLimitStore, type Policy, policies, type RateLimitStore } from './index.ts'

// The same algorithms as `takeToken` and `countInWindow`, run inside Redis so that reading,
// deciding and writing a client's state is one atomic step whichever server the request hit.
// One script checks every policy a request is counted against (the global limit and the route's),
// in order, stopping at the first refusal as the in-process store does: one round trip per
// request. It runs by its hash (EVALSHA), so Redis neither receives nor hashes its text each time.
// Numbers are written with %.0f: Lua's default conversion would round epoch milliseconds.
// KEYS: one per check; ARGV: now, ttl, then per check its kind (b or w) and three numbers.
const LIMITS = `
local now, ttl = tonumber(ARGV[1]), ARGV[2]
local function bucket(key, cap, refill, period)
  local s = redis.call('HMGET', key, 't', 's')
  local tokens = tonumber(s[1]) or cap
  local since = tonumber(s[2]) or now
  local periods = math.floor((now - since) / period)
  if periods > 0 then
    tokens = math.min(cap, tokens + periods * refill)
    since = since + periods * period
  end
  local allowed, retry = 0, 0
  if tokens > 0 then tokens = tokens - 1; allowed = 1 else retry = since + period - now end
  redis.call('HSET', key, 't', string.format('%.0f', tokens), 's', string.format('%.0f', since))
  redis.call('PEXPIRE', key, ttl)
  return allowed, retry
end
local function window(key, permits, windowMs, segs)
  local segMs = windowMs / segs
  local s = redis.call('HMGET', key, 'c', 's')
  local counts = {}
  if s[1] then for n in string.gmatch(s[1], '[^,]+') do counts[#counts + 1] = tonumber(n) end end
  if #counts ~= segs then counts = {}; for i = 1, segs do counts[i] = 0 end end
  local since = tonumber(s[2]) or now
  local elapsed = math.floor((now - since) / segMs)
  if elapsed > 0 then
    local moved = {}
    for i = 1, segs do moved[i] = counts[i + elapsed] or 0 end
    counts = moved
    since = since + elapsed * segMs
  end
  local used = 0
  for i = 1, segs do used = used + counts[i] end
  local allowed, retry = 0, 0
  if used < permits then
    counts[segs] = counts[segs] + 1
    allowed = 1
  else
    local oldest = segs
    for i = 1, segs do if counts[i] > 0 then oldest = i; break end end
    retry = since + oldest * segMs - now
  end
  redis.call('HSET', key, 'c', table.concat(counts, ','), 's', string.format('%.0f', since))
  redis.call('PEXPIRE', key, ttl)
  return allowed, retry
end
for i = 1, #KEYS do
  local at = 3 + (i - 1) * 4
  local a, b, c = tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2]), tonumber(ARGV[at + 3])
  local allowed, retry
  if ARGV[at] == 'b' then allowed, retry = bucket(KEYS[i], a, b, c) else allowed, retry = window(KEYS[i], a, b, c) end
  if allowed == 0 then return {0, retry, i} end
end
return {1, 0, 0}
`

/** Idle clients' state expires: after this long every policy is back to full. */
const IDLE_MS = 300_000

/**
 * Rate-limit counters in Redis: every server counts against the same limits. While Redis is away
 * (or a check fails or times out) this server counts in its own memory instead, so the limits
 * still hold, per server, and a request never waits for Redis.
 */
export function createRedisRateLimitStore(redis: RedisConnections): RateLimitStore {
  const { command, prefix } = redis
  command.defineCommand('pennantLimits', { lua: LIMITS })
  // Loaded ahead (also after a reconnection, as a restarted Redis forgets it), so the first
  // requests do not each take a second round trip to send the text.
  const preload = () => void command.script('LOAD', LIMITS).catch(() => {})
  if (command.status === 'ready') preload()
  command.on('ready', preload)
  const run = (command as unknown as { pennantLimits(...args: (string | number)[]): Promise<number[]> })
    .pennantLimits
  const local = createMemoryRateLimitStore()
  const hitAll: RateLimitStore['hitAll'] = async (checks, now) => {
    if (!redis.usable()) return local.hitAll(checks, now)
    const args: (string | number)[] = [now, IDLE_MS]
    for (const { policy } of checks) {
      const p: Policy = policies[policy]
      if (p.kind === 'bucket') args.push('b', p.capacity, p.refill, p.periodMs)
      else args.push('w', p.permits, p.windowMs, p.segments)
    }
    try {
      const [allowed, retry, refused] = await run.call(
        command,
        checks.length,
        ...checks.map(({ policy, key }) => `${prefix}rl:${policy}:${key}`),
        ...args,
      )
      if (allowed === 1) return { allowed: true, retryAfterMs: 0 }
      return { allowed: false, retryAfterMs: Math.max(0, retry!), policy: checks[refused! - 1]!.policy }
    } catch (err) {
      redis.failed(err)
      // Redis failed or was too slow: this server decides alone (the outage is logged once,
      // by the connection).
      return local.hitAll(checks, now)
    }
  }
  return {
    hit: async (policy, key, now) => {
      const { allowed, retryAfterMs } = await hitAll([{ policy, key }], now)
      return { allowed, retryAfterMs }
    },
    hitAll,
    close() {
      command.off('ready', preload)
      local.close()
    },
  }
}
