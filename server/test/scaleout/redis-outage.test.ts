import { randomBytes } from 'node:crypto'
import path from 'node:path'
import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  ADMIN_PASSWORD,
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { freePort, hasRedisServer, killHard, ownRedis, type ServerProcess, startServer } from './cluster.ts'

// Two real server processes on one PostgreSQL, sharing a Redis of this test's own, which the
// test stops and starts: the servers must start without it, answer quickly and keep their
// limits while it is away, say so, and lose nothing players should see once it is back.
const FLAG = 'flag{redis-outage}'
const PREFIX = `pennant-t-${randomBytes(4).toString('hex')}:`

let redis: ReturnType<typeof ownRedis>
let t: TestApp
let admin: Agent
let player: TestUser & { teamId: number }
let game: { id: number }
let challenge: { id: number }
let a: ServerProcess
let b: ServerProcess
const hubs: HubConnection[] = []

const cookieOf = (agent: Agent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

function send(agent: Agent | null, url: string, method = 'GET', body?: unknown) {
  return fetch(url, {
    method,
    headers: {
      ...(agent ? { cookie: cookieOf(agent), 'x-xsrf-token': agent.cookies.get('XSRF-TOKEN') ?? '' } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

/** A hub client as the official SignalR client runs it, reconnecting by itself. */
function userHub(server: ServerProcess) {
  const connection = new HubConnectionBuilder()
    .withUrl(`${server.url}/hub/user?game=${game.id}`, { transport: HttpTransportType.WebSockets })
    .withAutomaticReconnect([0, 200, 500, 1000, 1000, 1000, 1000, 1000])
    .configureLogging(LogLevel.None)
    .build()
  hubs.push(connection)
  const notices: string[] = []
  connection.on('ReceivedGameNotice', (n: { values: string[] }) => notices.push(n.values[0] ?? ''))
  const reconnects: number[] = []
  connection.onreconnected(() => reconnects.push(Date.now()))
  return { connection, notices, reconnects }
}

const readiness = async (server: ServerProcess) => {
  const res = await fetch(`${server.url}/healthz/ready`)
  return { status: res.status, body: await res.json() }
}
const redisUp = async (server: ServerProcess) => {
  const text = await (await fetch(`${server.url}/metrics`)).text()
  return /^pennant_redis_up (\d)$/m.exec(text)?.[1]
}
const logged = (server: ServerProcess, part: string) =>
  server.logs.filter((l) => typeof l.msg === 'string' && l.msg.includes(part))

/** The notices a player reading the game on `server` sees. */
const noticesOn = async (server: ServerProcess) =>
  (
    (await (await send(admin, `${server.url}/api/game/${game.id}/notices`)).json()) as { values: string[] }[]
  ).map((n) => n.values[0])
const scoreOn = async (server: ServerProcess) => {
  const board = (await (await fetch(`${server.url}/api/game/${game.id}/scoreboard`)).json()) as {
    items: { id: number; score: number }[]
  }
  return board.items.find((i) => i.id === player.teamId)?.score ?? 0
}

const ready = !!process.env.TEST_DATABASE_URL && hasRedisServer()

beforeAll(async () => {
  if (!ready) return
  redis = ownRedis(await freePort())
  // The test's own app only prepares the database; the two servers are what is tested.
  t = await createTestApp()
  admin = await adminAgent(t.app)
  game = await createGame(admin)
  challenge = await staticChallenge(admin, game.id, FLAG)
  player = await acceptedPlayer(t.app, admin, game.id)
  const env = {
    DATABASE_URL: t.databaseUrl!,
    // Redis is not running yet: both servers start without it.
    REDIS_URL: redis.url,
    REDIS_PREFIX: PREFIX,
    DATA_DIR: t.dataDir,
    WEB_DIR: path.join(t.dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
    LOG_LEVEL: 'info',
    PENNANT_ADMIN_PASSWORD: ADMIN_PASSWORD,
  }
  ;[a, b] = await Promise.all([startServer('a', env), startServer('b', env)])
}, 90_000)

afterAll(async () => {
  if (!ready) return
  await Promise.all(hubs.map((c) => c.stop().catch(() => {})))
  for (const s of [a, b]) if (s) await killHard(s)
  await redis?.stop()
  await t?.close()
}, 60_000)

describe.skipIf(!ready)('servers sharing a Redis that goes away and comes back', () => {
  it('start while Redis is down, serve, and say so in the log, readiness and metrics', async () => {
    for (const server of [a, b]) {
      const lines = logged(server, 'REDIS_URL')
      expect(lines).toHaveLength(1)
      expect(lines[0]!.msg).toContain(redis.url.replace('redis://', ''))
      expect(lines[0]!.level).toBe(40)
      expect(await readiness(server)).toEqual({ status: 200, body: { status: 'Healthy', redis: 'degraded' } })
      expect(await redisUp(server)).toBe('0')
      expect((await send(admin, `${server.url}/api/game/${game.id}`)).status).toBe(200)
    }
  })

  it('share state once Redis comes, without a restart', async () => {
    await redis.start()
    for (const server of [a, b]) {
      await eventually(async () => expect(await redisUp(server)).toBe('1'), 10_000)
      expect(await readiness(server)).toEqual({ status: 200, body: { status: 'Healthy', redis: 'up' } })
      expect(logged(server, 'answers again')).toHaveLength(1)
    }
    // The bus works across the servers again: a notice posted on A reaches a client of B.
    const onB = userHub(b)
    await onB.connection.start()
    // real wait: the other server admits the hub connection (no hook to wait on from here)
    await new Promise((r) => setTimeout(r, 300)) // admitted into the game's group
    const text = `shared ${Date.now()}`
    expect(
      (await send(admin, `${a.url}/api/edit/games/${game.id}/notices`, 'POST', { content: text })).status,
    ).toBe(200)
    await eventually(async () => expect(onB.notices).toContain(text), 3000)
  })

  it('answer within 1 s, keep their limits and their own live updates while Redis is away, and lose nothing once it is back', {
    timeout: 60_000,
  }, async () => {
    const onA = userHub(a)
    const onB = userHub(b)
    await Promise.all([onA.connection.start(), onB.connection.start()])
    // real wait: the servers admit the hub connections (no hook to wait on from here)
    await new Promise((r) => setTimeout(r, 300))
    expect(await scoreOn(b)).toBe(0) // B has its board in memory before the outage

    await redis.stop()
    const down = Date.now()
    for (const server of [a, b]) {
      await eventually(async () => expect(await redisUp(server)).toBe('0'), 5000)
      expect(await readiness(server)).toEqual({ status: 200, body: { status: 'Healthy', redis: 'degraded' } })
    }

    // Every request answers, and quickly: session lookups, reads, the cache, submissions.
    const slowest = { ms: 0, what: '' }
    const timed = async (what: string, request: () => Promise<Response>, expected: number) => {
      const started = performance.now()
      const res = await request()
      const ms = performance.now() - started
      expect(res.status, what).toBe(expected)
      if (ms > slowest.ms) Object.assign(slowest, { ms, what })
    }
    for (let round = 0; round < 5; round++) {
      for (const server of [a, b]) {
        await timed('game', () => send(player.agent, `${server.url}/api/game/${game.id}`), 200)
        await timed('profile', () => send(player.agent, `${server.url}/api/account/profile`), 200)
        await timed('notices', () => send(player.agent, `${server.url}/api/game/${game.id}/notices`), 200)
        await timed('board', () => send(player.agent, `${server.url}/api/game/${game.id}/scoreboard`), 200)
        await timed(
          'wrong sign-in',
          () =>
            send(null, `${server.url}/api/account/login`, 'POST', {
              userName: 'nobody',
              password: 'Wrong-123',
            }),
          401,
        )
      }
    }
    expect(slowest.ms, `slowest: ${slowest.what}`).toBeLessThan(1000)

    // Rate limits still apply, counted by each server alone: Register allows 20 per address.
    const statuses: number[] = []
    for (let i = 0; i < 22; i++)
      statuses.push((await send(null, `${a.url}/api/account/register`, 'POST', {})).status)
    expect(statuses.slice(0, 20)).toEqual(new Array(20).fill(400))
    expect(statuses.slice(20)).toEqual([429, 429])

    // A notice and a solve on A: A's own players hear of the notice at once.
    const text = `during the outage ${Date.now()}`
    expect(
      (await send(admin, `${a.url}/api/edit/games/${game.id}/notices`, 'POST', { content: text })).status,
    ).toBe(200)
    const solved = await send(
      player.agent,
      `${a.url}/api/game/${game.id}/challenges/${challenge.id}`,
      'POST',
      {
        flag: FLAG,
      },
    )
    expect(solved.status).toBe(200)
    await eventually(async () => expect(onA.notices).toContain(text), 3000)
    await eventually(async () => expect(await scoreOn(a)).toBeGreaterThan(0), 5000)
    // B cannot have heard of either yet.
    expect(onB.notices).not.toContain(text)
    expect(await scoreOn(b)).toBe(0)

    // The outage is logged once per server, as JSON, however many reconnections failed.
    // real wait: a real Redis client's reconnections while Redis is down
    await new Promise((r) => setTimeout(r, 1500))
    for (const server of [a, b]) expect(logged(server, 'is unreachable')).toHaveLength(1)
    const outageMs = Date.now() - down

    await redis.start()
    for (const server of [a, b]) {
      await eventually(async () => expect(await redisUp(server)).toBe('1'), 10_000)
      expect(await readiness(server)).toEqual({ status: 200, body: { status: 'Healthy', redis: 'up' } })
      expect(logged(server, 'answers again')).toHaveLength(2)
    }
    // B's client sees the notice: pushed (A's queued message), or read again after B asked its
    // clients to re-sync, as the web client does when its hub is live again.
    await eventually(async () => {
      if (onB.notices.includes(text)) return
      expect(onB.reconnects.length).toBeGreaterThan(0)
      expect(await noticesOn(b)).toContain(text)
    }, 10_000)
    // Both servers' subscriptions were down: each asks its hub clients to re-sync, and they do.
    await eventually(async () => {
      expect(onA.reconnects.length).toBeGreaterThan(0)
      expect(onB.reconnects.length).toBeGreaterThan(0)
    }, 10_000)
    // B's board has the solve judged on A during the outage.
    await eventually(async () => expect(await scoreOn(b)).toBeGreaterThan(0), 5000)
    expect(outageMs).toBeGreaterThan(1500)
  })
})
