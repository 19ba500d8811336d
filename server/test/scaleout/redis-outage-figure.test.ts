import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_PASSWORD, adminAgent, createGame } from '../factories.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import {
  freePort,
  hasRedisServer,
  killHard,
  ownRedis,
  type ServerProcess,
  startNginx,
  startServer,
} from './cluster.ts'

// The figure for docs/operators/redis.md: players' requests through nginx to two servers while
// their Redis is stopped for 30 s. Heavy (about a minute of load): run it alone, on demand:
//   REDIS_OUTAGE_FIGURE=1 flock /tmp/pennant-heavy.lock npx vitest run test/scaleout/redis-outage-figure.test.ts
const WINDOW_MS = 5000
const BEFORE_MS = 15_000
const OUTAGE_MS = 30_000
const AFTER_MS = 15_000
const WORKERS = 16

const run = !!process.env.TEST_DATABASE_URL && !!process.env.REDIS_OUTAGE_FIGURE && hasRedisServer()

let redis: ReturnType<typeof ownRedis>
let t: TestApp
let game: { id: number }
let servers: ServerProcess[] = []
let nginx: Awaited<ReturnType<typeof startNginx>>
const prefix = `pennant-t-${randomBytes(4).toString('hex')}:`

beforeAll(async () => {
  if (!run) return
  redis = ownRedis(await freePort())
  await redis.start()
  t = await createTestApp()
  const admin = await adminAgent(t.app)
  game = await createGame(admin)
  const env = {
    DATABASE_URL: t.databaseUrl!,
    REDIS_URL: redis.url,
    REDIS_PREFIX: prefix,
    DATA_DIR: t.dataDir,
    WEB_DIR: path.join(t.dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
    LOG_LEVEL: 'warn',
    // nginx's X-Forwarded-For is believed: each request comes from its own address, so each
    // passes the Global rate limit, which is counted in Redis (or locally while it is away).
    TRUST_PROXY: 'loopback',
    PENNANT_ADMIN_PASSWORD: ADMIN_PASSWORD,
  }
  servers = await Promise.all([startServer('a', env), startServer('b', env)])
  nginx = await startNginx(servers.map((s) => s.port))
}, 180_000)

afterAll(async () => {
  if (!run) return
  await nginx?.stop()
  for (const s of servers) await killHard(s)
  await redis?.stop()
  await t?.close()
}, 60_000)

describe.skipIf(!run)('a 30 s Redis outage under load', () => {
  it('keeps every request under 1 s and throughput above half of normal', { timeout: 180_000 }, async () => {
    const paths = [`/api/game/${game.id}`, `/api/game/${game.id}/notices`, `/api/game/${game.id}/scoreboard`]
    const started = Date.now()
    const end = started + BEFORE_MS + OUTAGE_MS + AFTER_MS
    const windows: { count: number; ok: number; limited: number; maxMs: number; failed: number }[] = []
    const windowOf = (at: number) => {
      const i = Math.floor((at - started) / WINDOW_MS)
      windows[i] ??= { count: 0, ok: 0, limited: 0, maxMs: 0, failed: 0 }
      return windows[i]
    }
    let n = 0
    const worker = async () => {
      while (Date.now() < end) {
        const i = n++
        const path = paths[i % paths.length]!
        const from = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`
        const t0 = performance.now()
        let status = 0
        try {
          const res = await fetch(`${nginx.url}${path}`, { headers: { 'x-forwarded-for': from } })
          await res.arrayBuffer()
          status = res.status
        } catch {
          status = 0
        }
        const ms = performance.now() - t0
        const w = windowOf(Date.now())
        w.count++
        if (status === 200) w.ok++
        else if (status === 429) w.limited++
        else w.failed++
        w.maxMs = Math.max(w.maxMs, ms)
      }
    }
    const load = Promise.all(Array.from({ length: WORKERS }, worker))
    // real wait: the measured figure's load window before a real outage
    await new Promise((r) => setTimeout(r, BEFORE_MS))
    await redis.stop()
    // real wait: the measured figure's real outage window
    await new Promise((r) => setTimeout(r, OUTAGE_MS))
    await redis.start()
    await load

    const phase = (i: number) =>
      (i + 1) * WINDOW_MS <= BEFORE_MS
        ? 'before'
        : i * WINDOW_MS >= BEFORE_MS + OUTAGE_MS
          ? 'after'
          : 'outage'
    const table = windows.map((w, i) => ({
      from_s: (i * WINDOW_MS) / 1000,
      phase: phase(i),
      ...w,
      maxMs: Math.round(w.maxMs),
    }))
    console.table(table)
    const of = (p: string) => table.filter((r) => r.phase === p)
    const normal = Math.min(
      ...of('before')
        .slice(1)
        .map((r) => r.count),
    )
    const worstOutage = Math.min(...of('outage').map((r) => r.count))
    const slowestOutage = Math.max(...of('outage').map((r) => r.maxMs))
    console.log(
      JSON.stringify({
        normalPer5s: normal,
        worstOutagePer5s: worstOutage,
        slowestDuringOutageMs: slowestOutage,
      }),
    )
    // The limits were counted in Redis before and after the outage (one key per address).
    const check = new Redis(redis.url)
    const counted = (await check.keys(`${prefix}rl:Global:*`)).length
    await check.quit()
    console.log(JSON.stringify({ requests: n, countedInRedis: counted }))
    expect(counted).toBeGreaterThan(1000)
    expect(table.reduce((s, r) => s + r.failed, 0)).toBe(0)
    expect(slowestOutage).toBeLessThan(1000)
    expect(worstOutage).toBeGreaterThan(normal / 2)
  })
})
