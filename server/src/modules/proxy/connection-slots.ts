import type { RedisConnections } from '../../infra/redis/index.ts'

/**
 * The proxy's connections per container, counted against `CONTAINER_PROXY_CONNECTION_LIMIT`:
 * in this process alone, or in Redis so that the limit holds across every server.
 */
export interface ConnectionSlots {
  /** Takes a slot of `container` for connection `id`; false when `limit` are taken already. */
  take(container: string, id: string, limit: number): Promise<boolean>
  /** Gives a taken slot back. */
  give(container: string, id: string): void
  close(): void
}

export function createMemorySlots(): ConnectionSlots {
  const open = new Map<string, Set<string>>()
  return {
    async take(container, id, limit) {
      const ids = open.get(container) ?? new Set<string>()
      if (ids.size >= limit) return false
      ids.add(id)
      open.set(container, ids)
      return true
    },
    give(container, id) {
      const ids = open.get(container)
      if (!ids?.delete(id)) return
      if (!ids.size) open.delete(container)
    },
    close() {},
  }
}

/** A slot lapses this long after its server last renewed it (a server that died frees its own). */
const SLOT_MS = 60_000
const RENEW_MS = 20_000

// Drops lapsed slots, then takes one if fewer than the limit are held: one round trip.
// KEYS[1]: the container's set; ARGV: now, expiry, limit, member.
const TAKE = `
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[4])
redis.call('PEXPIRE', KEYS[1], ${SLOT_MS})
return 1
`

/**
 * Slots in Redis: a sorted set per container of `origin:id`, each scored with when it lapses.
 * This server renews its own slots every RENEW_MS. While Redis is away (or a command fails)
 * connections are counted in this process only, as alone.
 */
export function createRedisSlots(redis: RedisConnections): ConnectionSlots {
  const { command, prefix, origin } = redis
  command.defineCommand('pennantProxySlot', { numberOfKeys: 1, lua: TAKE })
  const takeSlot = (
    command as unknown as {
      pennantProxySlot(
        key: string,
        now: number,
        until: number,
        limit: number,
        member: string,
      ): Promise<number>
    }
  ).pennantProxySlot
  const local = createMemorySlots()
  /** Slots this server holds in Redis, by container. */
  const mine = new Map<string, Set<string>>()
  const key = (container: string) => `${prefix}proxy-slots:${container}`
  const member = (id: string) => `${origin}:${id}`
  const renew = setInterval(() => {
    if (!mine.size || !redis.usable()) return
    const until = Date.now() + SLOT_MS
    const batch = command.pipeline()
    for (const [container, ids] of mine)
      for (const id of ids) batch.zadd(key(container), 'XX', until, member(id))
    batch.exec().catch(() => {})
  }, RENEW_MS)
  renew.unref()
  return {
    async take(container, id, limit) {
      if (!redis.usable()) return local.take(container, id, limit)
      const now = Date.now()
      try {
        const ok = (await takeSlot.call(command, key(container), now, now + SLOT_MS, limit, member(id))) === 1
        if (ok) mine.set(container, (mine.get(container) ?? new Set<string>()).add(id))
        return ok
      } catch (err) {
        redis.failed(err)
        return local.take(container, id, limit)
      }
    },
    give(container, id) {
      const ids = mine.get(container)
      if (ids?.delete(id)) {
        if (!ids.size) mine.delete(container)
        // Not given back (Redis away): it lapses within SLOT_MS.
        command.zrem(key(container), member(id)).catch(() => {})
      } else local.give(container, id)
    },
    close() {
      clearInterval(renew)
    },
  }
}
