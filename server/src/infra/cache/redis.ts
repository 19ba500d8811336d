import type { RedisConnections } from '../redis/index.ts'
import type { Cache } from './index.ts'

/** The cache in Redis, so every server sees the same captcha challenges and throttles. */
export function createRedisCache(redis: RedisConnections): Cache {
  const { command, prefix } = redis
  const key = (k: string) => `${prefix}cache:${k}`
  return {
    get: (k) => command.get(key(k)),
    async set(k, value, ttlMs) {
      await command.set(key(k), value, 'PX', Math.max(1, Math.ceil(ttlMs)))
    },
    // DEL answers how many keys it removed: exactly one caller sees 1 (single-use tokens).
    take: async (k) => (await command.del(key(k))) === 1,
    // The connections belong to the infra; it closes them once for every user.
    async close() {},
  }
}
