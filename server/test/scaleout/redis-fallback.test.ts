import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BusTopics } from '../../src/infra/bus/index.ts'
import { createRedisBus } from '../../src/infra/bus/redis.ts'
import { createRedisCache } from '../../src/infra/cache/redis.ts'
import { createRedisRateLimitStore } from '../../src/infra/rate-limit/redis.ts'
import { connectRedis, type RedisConnections } from '../../src/infra/redis/index.ts'
import { eventually } from '../factories.ts'
import { freePort, hasRedisServer, ownRedis } from './cluster.ts'

// The Redis ports against a Redis of the test's own, which is down, killed and frozen on purpose.
const PREFIX = `pennant-t-${randomBytes(4).toString('hex')}:`
let redis: ReturnType<typeof ownRedis>
const opened: RedisConnections[] = []
const lines: { level: string; msg: string }[] = []
const log = {
  info: (msg: string) => lines.push({ level: 'info', msg }),
  warn: (msg: string) => lines.push({ level: 'warn', msg }),
}

async function open() {
  const conn = await connectRedis(redis.url, { prefix: PREFIX, log, startWaitMs: 500 })
  opened.push(conn)
  return conn
}

const notice = (id: number): BusTopics['game.notice'] => ({
  gameId: 1,
  notice: { id, time: 0, type: 'Normal', values: [`n${id}`] },
})

const timed = async <T>(work: () => Promise<T>): Promise<[T, number]> => {
  const started = performance.now()
  const value = await work()
  return [value, performance.now() - started]
}

const runs = hasRedisServer()

beforeAll(async () => {
  redis = ownRedis(await freePort())
})
afterAll(async () => {
  if (!runs) return
  redis.thaw()
  for (const conn of opened) await conn.close()
  await redis.stop()
})

describe.skipIf(!runs)('the Redis ports without Redis', () => {
  let one: RedisConnections
  it('start without it, fall back to this process, and say so once', async () => {
    const [conn, ms] = await timed(open)
    one = conn
    expect(ms).toBeLessThan(1500)
    expect(one.up).toBe(false)
    expect(lines).toEqual([
      {
        level: 'warn',
        msg: expect.stringMatching(new RegExp(`^Redis at ${one.where} \\(REDIS_URL\\) does not answer`)),
      },
    ])

    // The cache keeps what it is given, single-use keys still go once.
    const cache = createRedisCache(one)
    const [, setMs] = await timed(() => cache.set('captcha:1', 'answer', 60_000))
    expect(setMs).toBeLessThan(50)
    expect(await cache.get('captcha:1')).toBe('answer')
    expect(await cache.take('captcha:1')).toBe(true)
    expect(await cache.take('captcha:1')).toBe(false)
    await cache.set('kept', 'v', 60_000)

    // Limits hold: Submit is a bucket of 100.
    const limits = createRedisRateLimitStore(one)
    const now = Date.now()
    const verdicts = await Promise.all(Array.from({ length: 101 }, () => limits.hit('Submit', 'p', now)))
    expect(verdicts.filter((v) => v.allowed)).toHaveLength(100)
    expect(verdicts[100]).toEqual({ allowed: false, retryAfterMs: 5000 })

    // The bus delivers here at once.
    const bus = createRedisBus(one)
    await bus.ready?.()
    const heard: number[] = []
    bus.subscribe('game.notice', (m) => heard.push(m.notice.id))
    bus.publish('game.notice', notice(1))
    expect(heard).toEqual([1])

    // Several seconds of failed reconnections: still one line.
    // real wait: a real Redis client's reconnections while Redis is down
    await new Promise((r) => setTimeout(r, 1500))
    expect(lines).toHaveLength(1)

    // Redis comes: shared again, said once; what was cached meanwhile is still there, and a
    // server that joins now hears the notice published during the outage.
    const resynced: string[] = []
    bus.subscribe('live.resync', () => resynced.push('resync'))
    const changes: boolean[] = []
    one.onChange((up) => changes.push(up))
    await redis.start()
    await eventually(async () => expect(one.up).toBe(true), 5000)
    expect(changes).toEqual([true])
    expect(lines.slice(1)).toEqual([{ level: 'info', msg: expect.stringContaining('answers again') }])
    expect(await cache.get('kept')).toBe('v')
    // The first subscription of a server that started without Redis is a catching up.
    await eventually(async () => expect(resynced).toEqual(['resync']), 3000)
    await bus.close()
    await cache.close()
    limits.close()
  })
})

describe.skipIf(!runs)('the Redis ports when Redis goes away', () => {
  it('queue what the bus sends while disconnected and send it, in order, on reconnecting', async () => {
    const [x, y] = [await open(), await open()]
    const [sender, receiver] = [createRedisBus(x), createRedisBus(y)]
    await Promise.all([sender.ready?.(), receiver.ready?.()])
    const heard: number[] = []
    receiver.subscribe('game.notice', (m) => heard.push(m.notice.id))
    // Just cut (ioredis has not noticed yet: the PUBLISH is refused unwritten), then known down.
    x.command.disconnect(true)
    for (let id = 1; id <= 3; id++) sender.publish('game.notice', notice(id))
    await new Promise((r) => setImmediate(r))
    await eventually(async () => expect(x.command.status).not.toBe('ready'), 1000)
    for (let id = 4; id <= 6; id++) sender.publish('game.notice', notice(id))
    await eventually(async () => expect(heard).toEqual([1, 2, 3, 4, 5, 6]), 5000)
    await sender.close()
    await receiver.close()
  })

  it('asks hub clients to re-sync once the subscription is back', async () => {
    const conn = await open()
    const bus = createRedisBus(conn)
    await bus.ready?.()
    const heard: string[] = []
    bus.subscribe('live.resync', () => heard.push('resync'))
    bus.subscribe('cache.forget', (m) => heard.push(m.what))
    conn.subscriber.disconnect(true)
    await eventually(async () => expect(heard).toEqual(['membership', 'resync']), 5000)
    await bus.close()
  })

  it('answer within one command timeout when Redis hangs, then without waiting for it', async () => {
    const conn = await open()
    const cache = createRedisCache(conn)
    const limits = createRedisRateLimitStore(conn)
    await cache.set('k', 'shared', 60_000)
    expect(await cache.get('k')).toBe('shared')
    redis.freeze()
    try {
      const [first, firstMs] = await timed(() => limits.hit('Query', 'hung', Date.now()))
      expect(first.allowed).toBe(true)
      expect(firstMs).toBeGreaterThan(200) // the one timeout (250 ms)
      expect(firstMs).toBeLessThan(600)
      const [value, nextMs] = await timed(() => cache.get('k'))
      expect(value).toBeNull() // what only Redis holds is a miss
      expect(nextMs).toBeLessThan(50)
    } finally {
      redis.thaw()
    }
    // A second later Redis is asked again.
    await eventually(async () => expect(await cache.get('k')).toBe('shared'), 3000)
    await cache.close()
    limits.close()
  })

  it('log one line when Redis dies and one when it is back', async () => {
    const conn = await open()
    const before = lines.length
    await redis.stop()
    await eventually(async () => expect(opened.map((c) => c.up)).not.toContain(true), 3000)
    // real wait: a real Redis client's reconnections while Redis is down
    await new Promise((r) => setTimeout(r, 1000))
    // Every open connection says it once (each stands for a server here).
    const down = lines.slice(before)
    expect(down).toHaveLength(opened.length)
    expect(down.every((l) => l.level === 'warn' && /is unreachable/.test(l.msg))).toBe(true)
    await redis.start()
    await eventually(async () => expect(conn.up).toBe(true), 5000)
  })
})
