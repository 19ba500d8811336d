import type { RedisConnections } from '../redis/index.ts'
import { createMemoryRateLimitStore, type Policy, policies, type RateLimitStore } from './index.ts'

// The same algorithms as `takeToken` and `countInWindow`, run inside Redis so that reading,
// deciding and writing a client's state is one atomic step whichever server the request hit.
// Numbers are written with %.0f: Lua's default conversion would round epoch milliseconds.
const BUCKET = `
local now, cap, refill, period, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local s = redis.call('HMGET', KEYS[1], 't', 's')
local tokens = tonumber(s[1]) or cap
local since = tonumber(s[2]) or now
local periods = math.floor((now - since) / period)
if periods > 0 then
  tokens = math.min(cap, tokens + periods * refill)
  since = since + periods * period
end
local allowed, retry = 0, 0
if tokens > 0 then tokens = tokens - 1; allowed = 1 else retry = since + period - now end
redis.call('HSET', KEYS[1], 't', string.format('%.0f', tokens), 's', string.format('%.0f', since))
redis.call('PEXPIRE', KEYS[1], ttl)
return {allowed, retry}
`

const WINDOW = `
local now, permits, windowMs, segs, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[5]
local segMs = windowMs / segs
local s = redis.call('HMGET', KEYS[1], 'c', 's')
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
redis.call('HSET', KEYS[1], 'c', table.concat(counts, ','), 's', string.format('%.0f', since))
redis.call('PEXPIRE', KEYS[1], ttl)
return {allowed, retry}
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
  const local = createMemoryRateLimitStore()
  return {
    async hit(name, key, now) {
      if (!redis.usable()) return local.hit(name, key, now)
      const p: Policy = policies[name]
      const args =
        p.kind === 'bucket'
          ? [now, p.capacity, p.refill, p.periodMs]
          : [now, p.permits, p.windowMs, p.segments]
      try {
        const [allowed, retry] = (await command.eval(
          p.kind === 'bucket' ? BUCKET : WINDOW,
          1,
          `${prefix}rl:${name}:${key}`,
          ...args,
          IDLE_MS,
        )) as [number, number]
        return { allowed: allowed === 1, retryAfterMs: Math.max(0, retry) }
      } catch (err) {
        redis.failed(err)
        // Redis failed or was too slow: this server decides alone (the outage is logged once,
        // by the connection).
        return local.hit(name, key, now)
      }
    },
    close() {
      local.close()
    },
  }
}
