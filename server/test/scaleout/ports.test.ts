import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BusTopics } from '../../src/infra/bus/index.ts'
import { createRedisBus } from '../../src/infra/bus/redis.ts'
import { createRedisCache } from '../../src/infra/cache/redis.ts'
import { createPostgresLeases, keyOf, NAMESPACE } from '../../src/infra/leases/postgres.ts'
import { createMemoryRateLimitStore, type PolicyName, policies } from '../../src/infra/rate-limit/index.ts'
import { createRedisRateLimitStore } from '../../src/infra/rate-limit/redis.ts'
import { connectRedis, type RedisConnections } from '../../src/infra/redis/index.ts'
import { createRedisSlots } from '../../src/modules/proxy/connection-slots.ts'
import { eventually } from '../factories.ts'
import { createTestDatabase } from '../helpers/database.ts'

// The Redis and PostgreSQL halves of the scale-out ports, against the real services.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const PREFIX = `pennant-t-${randomBytes(4).toString('hex')}:`
let one: RedisConnections
let two: RedisConnections

beforeAll(async () => {
  // These check decisions, not timeouts (redis-fallback.test.ts does): on a loaded machine a
  // command can exceed the default 250 ms, and the store would then decide alone.
  one = await connectRedis(REDIS_URL, { prefix: PREFIX, commandTimeoutMs: 5000 })
  two = await connectRedis(REDIS_URL, { prefix: PREFIX, commandTimeoutMs: 5000 })
})
afterAll(async () => {
  const keys = await one.command.keys(`${PREFIX}*`)
  if (keys.length) await one.command.del(...keys)
  await one.close()
  await two.close()
})

describe('rate limits in Redis', () => {
  it('decide exactly as the in-process limits do, request by request', async () => {
    const memory = createMemoryRateLimitStore()
    const redis = createRedisRateLimitStore(one)
    const start = 1_800_000_000_000
    for (const name of Object.keys(policies) as PolicyName[]) {
      const key = `client-${name}`
      let now = start
      const refused = { before: 0, after: 0 }
      // Fast bursts and pauses of varied length: refusals, refills and window sliding all occur.
      for (let i = 0; i < 600; i++) {
        now += i % 150 === 149 ? 7_000 + (i % 7) * 9_000 : (i * 7) % 23
        const [m, r] = await Promise.all([memory.hit(name, key, now), redis.hit(name, key, now)])
        expect({ name, i, ...r }).toEqual({ name, i, ...m })
        if (!m.allowed) refused[i < 300 ? 'before' : 'after']++
      }
      expect(refused.before).toBeGreaterThan(0)
      expect(refused.after).toBeGreaterThan(0)
    }
    memory.close()
  })

  it('are shared by every server and counted atomically', async () => {
    const [x, y] = [createRedisRateLimitStore(one), createRedisRateLimitStore(two)]
    const now = Date.now()
    // Submit: a bucket of 100. 150 hits at once from two servers: exactly 100 pass.
    const verdicts = await Promise.all(
      Array.from({ length: 150 }, (_, i) => (i % 2 ? x : y).hit('Submit', 'burst', now)),
    )
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(100)
    expect(verdicts.find((v) => !v.allowed)?.retryAfterMs).toBe(5_000)
  })

  it('count a request against the global and the route limit in one go, across servers, as one server would', async () => {
    // A submit is counted against Global (a window of 150 a minute) and Submit (a bucket of
    // 100); a request refused by Global is not counted against Submit. Two servers in Redis
    // must decide each request as one in-process store does.
    const memory = createMemoryRateLimitStore()
    const [x, y] = [createRedisRateLimitStore(one), createRedisRateLimitStore(two)]
    const checks = [
      { policy: 'Global', key: 'u:both' },
      { policy: 'Submit', key: 'u:both' },
    ] as const
    const start = 1_800_000_000_000
    const seen = { Global: 0, Submit: 0 }
    let now = start
    for (let i = 0; i < 400; i++) {
      now += i % 120 === 119 ? 11_000 : 13
      const r = await (i % 2 ? x : y).hitAll(checks, now)
      const m = await memory.hitAll(checks, now)
      expect({ i, ...r }).toEqual({ i, ...m })
      if (m.policy) seen[m.policy as 'Global' | 'Submit']++
    }
    // Both limits refused some requests.
    expect(seen.Global).toBeGreaterThan(0)
    expect(seen.Submit).toBeGreaterThan(0)
    // The route limit alone, from the other server: it holds exactly what the combined
    // requests left in it (the ones Global refused were not counted).
    const [mSubmit, rSubmit] = [
      await memory.hit('Submit', 'u:both', now),
      await x.hit('Submit', 'u:both', now),
    ]
    expect(rSubmit).toEqual(mSubmit)
    memory.close()
  })
})

describe('proxy connection slots in Redis', () => {
  it('hold the per-container limit across servers, give slots back, and drop lapsed ones', async () => {
    const [x, y] = [createRedisSlots(one), createRedisSlots(two)]
    // Limit 4, ten connections at once through two servers: exactly four get a slot.
    const taken = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 ? x : y).take('c1', `conn${i}`, 4)),
    )
    expect(taken.filter(Boolean)).toHaveLength(4)
    // One closes on its server: one more fits, on the other server.
    const holder = taken.indexOf(true)
    ;(holder % 2 ? x : y).give('c1', `conn${holder}`)
    await eventually(async () => expect(await (holder % 2 ? y : x).take('c1', 'late', 4)).toBe(true))
    expect(await x.take('c1', 'over', 4)).toBe(false)
    // Another container has its own slots.
    expect(await y.take('c2', 'other', 4)).toBe(true)
    // A server that died holding slots: they lapse (scored in the past here) and free the limit.
    await one.command.zadd(`${PREFIX}proxy-slots:c3`, Date.now() - 1, 'dead:1', Date.now() - 1, 'dead:2')
    expect(await x.take('c3', 'fresh', 1)).toBe(true)
    x.close()
    y.close()
  })
})

describe('the cache in Redis', () => {
  it('is shared, expires, and hands a single-use key to exactly one taker', async () => {
    const [x, y] = [createRedisCache(one), createRedisCache(two)]
    await x.set('captcha:1', 'answer', 60_000)
    expect(await y.get('captcha:1')).toBe('answer')
    const takes = await Promise.all([x.take('captcha:1'), y.take('captcha:1'), x.take('captcha:1')])
    expect(takes.filter(Boolean)).toHaveLength(1)
    expect(await y.get('captcha:1')).toBeNull()
    await x.set('short', 'v', 50)
    // real wait: a Redis key's own TTL
    await new Promise((r) => setTimeout(r, 120))
    expect(await y.get('short')).toBeNull()
  })
})

describe('the bus over Redis', () => {
  it("delivers every message once to every server's subscribers, and keeps local topics local", async () => {
    const [x, y] = [createRedisBus(one), createRedisBus(two)]
    await Promise.all([x.ready?.(), y.ready?.()])
    const heard = { x: [] as number[], y: [] as number[], boardsOnY: 0 }
    x.subscribe('game.notice', (m) => heard.x.push(m.notice.id))
    y.subscribe('game.notice', (m) => heard.y.push(m.notice.id))
    y.subscribe('board.changed', () => heard.boardsOnY++)
    const notice = (id: number): BusTopics['game.notice'] => ({
      gameId: 1,
      notice: { id, time: 0, type: 'Normal', values: ['hi'] },
    })
    for (let id = 1; id <= 50; id++) (id % 2 ? x : y).publish('game.notice', notice(id))
    x.publish('board.changed', { gameId: 1, etag: 'e' })
    // Each server hears its own at once, in order; the other's in the order they were sent.
    await eventually(async () => {
      expect(heard.x.toSorted((p, q) => p - q)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
      expect(heard.y.toSorted((p, q) => p - q)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1))
    }, 3000)
    expect(heard.x.filter((id) => id % 2 === 0)).toEqual(Array.from({ length: 25 }, (_, i) => 2 * i + 2))
    expect(heard.boardsOnY).toBe(0)
    await x.close()
    await y.close()
  })
})

describe('the bus after Redis comes back', () => {
  it('makes the server forget what messages lost meanwhile could have changed', async () => {
    const conn = await connectRedis(REDIS_URL, { prefix: PREFIX })
    const bus = createRedisBus(conn)
    await bus.ready?.()
    const forgot: string[] = []
    bus.subscribe('cache.forget', (m) => forgot.push(m.what))
    bus.subscribe('settings.changed', () => forgot.push('settings'))
    conn.subscriber.disconnect(true)
    await eventually(async () => expect(forgot).toEqual(['membership', 'settings']), 5000)
    // And it hears the others again.
    const other = createRedisBus(two)
    await other.ready?.()
    other.publish('cache.forget', { what: 'game', gameId: 7, edited: false })
    await eventually(async () => expect(forgot).toContain('game'), 3000)
    await bus.close()
    await other.close()
    await conn.close()
  })
})

describe.skipIf(!process.env.TEST_DATABASE_URL)('leases as PostgreSQL advisory locks', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(async () => database.close())

  it('are held by one server at a time and move when the holder dies or lets go', async () => {
    const url = database.url!
    const [x, y, z] = [
      createPostgresLeases({ url }),
      createPostgresLeases({ url }),
      createPostgresLeases({ url }),
    ]
    expect(await x.hold('reaper')).toBe(true)
    expect(await x.hold('reaper')).toBe(true)
    expect(await y.hold('reaper')).toBe(false)
    // Different jobs are independent.
    expect(await y.hold('log trim')).toBe(true)

    // The holder's session dies (as with kill -9): the lease is free, and the old holder knows.
    const admin = new pg.Client({ connectionString: url })
    await admin.connect()
    // pg_locks shows the two keys of an advisory lock as unsigned oids.
    const holders = await admin.query<{ pid: number }>(
      `select pid from pg_locks
       where locktype = 'advisory' and granted and classid = $1 and objid = $2 and database =
         (select oid from pg_database where datname = current_database())`,
      [NAMESPACE >>> 0, keyOf('reaper') >>> 0],
    )
    expect(holders.rowCount).toBe(1)
    const pid = holders.rows[0]!.pid
    await admin.query('select pg_terminate_backend($1)', [pid])
    // Termination is a signal: the lock is gone once the backend has exited, not when it is sent.
    for (let i = 0; i < 100; i++) {
      const alive = await admin.query('select 1 from pg_stat_activity where pid = $1', [pid])
      if (alive.rowCount === 0) break
      // real wait: polling pg_stat_activity until the backend is gone
      await new Promise((r) => setTimeout(r, 50))
    }
    await admin.end()
    expect(await y.hold('reaper')).toBe(true)
    expect(await x.hold('reaper')).toBe(false)

    // A graceful release hands it over at once, and a released server takes nothing again.
    await y.release()
    expect(await z.hold('reaper')).toBe(true)
    expect(await z.hold('log trim')).toBe(true)
    expect(await y.hold('log trim')).toBe(false)
    await Promise.all([x.release(), z.release()])
  })
})
