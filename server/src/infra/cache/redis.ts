import type { RedisConnections } from '../redis/index.ts'
import type { Cache } from './index.ts'
import { createMemoryCache } from './memory.ts'

/**
 * The cache in Redis, so every server sees the same captcha challenges and throttles. While
 * Redis is away (or a command fails or times out) this server keeps what it writes in its own
 * memory and reads it from there, so a captcha asked for during an outage can still be
 * answered; what only Redis holds is then a miss. A read or take looks in both places, so what
 * was written during an outage is still found after Redis returns.
 */
export function createRedisCache(redis: RedisConnections): Cache {
  const { command, prefix } = redis
  const local = createMemoryCache()
  const key = (k: string) => `${prefix}cache:${k}`
  const shared = redis.usable
  return {
    async get(k) {
      if (shared()) {
        try {
          const value = await command.get(key(k))
          if (value !== null) return value
        } catch (err) {
          // a miss in Redis; this server's own copy may have it
          redis.failed(err)
        }
      }
      return local.get(k)
    },
    async set(k, value, ttlMs) {
      if (shared()) {
        try {
          await command.set(key(k), value, 'PX', Math.max(1, Math.ceil(ttlMs)))
          return
        } catch (err) {
          // kept here instead
          redis.failed(err)
        }
      }
      await local.set(k, value, ttlMs)
    },
    // DEL answers how many keys it removed: exactly one caller sees 1 (single-use tokens).
    async take(k) {
      if (await local.take(k)) return true
      if (!shared()) return false
      try {
        return (await command.del(key(k))) === 1
      } catch (err) {
        redis.failed(err)
        return false
      }
    },
    // The connections belong to the infra; it closes them once for every user.
    async close() {
      await local.close()
    },
  }
}
