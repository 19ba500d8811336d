import { randomBytes } from 'node:crypto'
import path from 'node:path'
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from '@microsoft/signalr'
import { eq, inArray } from 'drizzle-orm'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { submissions, users } from '../../src/db/schema.ts'
import {
  ADMIN_PASSWORD,
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  registeredUser,
  setRole,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { hasNginx, killHard, type ServerProcess, startNginx, startServer } from './cluster.ts'

// Two real server processes on one PostgreSQL and one Redis, behind Debian's nginx, as the
// README's scale-out section deploys them. Its own Redis key prefix keeps parallel runs apart.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
const PREFIX = `pennant-t-${randomBytes(4).toString('hex')}:`
const FLAG = 'flag{two-servers}'

let t: TestApp
let admin: Agent
let game: { id: number }
let challenge: { id: number }
let players: (TestUser & { teamId: number })[]
let a: ServerProcess
let b: ServerProcess
let nginx: Awaited<ReturnType<typeof startNginx>>
const hubs: HubConnection[] = []

const cookieOf = (agent: Agent) => [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ')

/** A request as the agent's browser would send it, to any server or the proxy. */
function send(agent: Agent, url: string, method = 'GET', body?: unknown) {
  return fetch(url, {
    method,
    headers: {
      cookie: cookieOf(agent),
      'x-xsrf-token': agent.cookies.get('XSRF-TOKEN') ?? '',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
}

function hub(url: string) {
  const connection = new HubConnectionBuilder()
    .withUrl(url, { transport: HttpTransportType.WebSockets })
    .withAutomaticReconnect([0, 200, 500, 1000, 1000, 1000, 1000, 1000])
    .configureLogging(LogLevel.None)
    .build()
  hubs.push(connection)
  return connection
}

const noticesOf = (connection: HubConnection) => {
  const got: { values: string[] }[] = []
  connection.on('ReceivedGameNotice', (n: { values: string[] }) => got.push(n))
  return got
}

const ran = (server: ServerProcess, job: string) =>
  server.logs.filter((l) => l.msg === 'job ran' && l.job === job).length
const tookOver = (server: ServerProcess, job: string) =>
  server.logs.some((l) => l.msg === `this server now runs the ${job}`)

const ready = !!process.env.TEST_DATABASE_URL && hasNginx()

beforeAll(async () => {
  if (!ready) return
  // The test's own app is a third member of the cluster (same database, Redis and prefix).
  t = await createTestApp({ REDIS_URL, REDIS_PREFIX: PREFIX })
  admin = await adminAgent(t.app)
  game = await createGame(admin)
  challenge = await staticChallenge(admin, game.id, FLAG)
  players = await Promise.all(Array.from({ length: 8 }, () => acceptedPlayer(t.app, admin, game.id)))
  const env = {
    DATABASE_URL: t.databaseUrl!,
    REDIS_URL,
    REDIS_PREFIX: PREFIX,
    DATA_DIR: t.dataDir,
    WEB_DIR: path.join(t.dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
    CONTAINER_REAPER_INTERVAL: '1',
    LOG_LEVEL: 'debug',
    PENNANT_ADMIN_PASSWORD: ADMIN_PASSWORD,
  }
  a = await startServer('a', env)
  b = await startServer('b', env)
  nginx = await startNginx([a.port, b.port])
}, 90_000)

afterAll(async () => {
  if (!ready) return
  await Promise.all(hubs.map((c) => c.stop().catch(() => {})))
  await nginx?.stop()
  for (const s of [a, b]) if (s) await killHard(s)
  await t?.close()
  // Our keys only.
  const redis = new Redis(REDIS_URL)
  const keys = await redis.keys(`${PREFIX}*`)
  if (keys.length) await redis.del(...keys)
  await redis.quit()
}, 60_000)

describe.skipIf(!ready)('two servers behind nginx on one PostgreSQL and one Redis', () => {
  it('counts a rate limit once for both servers', async () => {
    // Register allows 20 requests per address in 150 s. Through the proxy they alternate between
    // the servers; each alone would let 20 through, so 40 would pass with limits per process.
    const statuses: number[] = []
    const upstreams = new Set<string>()
    for (let i = 0; i < 22; i++) {
      const res = await fetch(`${nginx.url}/api/account/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.17' },
        body: '{}',
      })
      statuses.push(res.status)
      upstreams.add(res.headers.get('x-upstream') ?? '')
    }
    expect(upstreams).toEqual(new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]))
    expect(statuses.slice(0, 20)).toEqual(new Array(20).fill(400))
    expect(statuses.slice(20)).toEqual([429, 429])
  })

  it('shows a solve judged on one server on the scoreboard the other serves within 1 s', async () => {
    const player = players[0]!
    const scoreOnB = async () => {
      const board = (await (await fetch(`${b.url}/api/game/${game.id}/scoreboard`)).json()) as {
        items: { id: number; score: number }[]
      }
      return board.items.find((i) => i.id === player.teamId)?.score ?? 0
    }
    // B has built the board before the solve: what follows is B hearing of it, not a first read.
    expect(await scoreOnB()).toBe(0)
    const res = await send(player.agent, `${a.url}/api/game/${game.id}/challenges/${challenge.id}`, 'POST', {
      flag: FLAG,
    })
    expect(res.status).toBe(200)
    const id = (await res.json()) as number
    await eventually(async () => {
      const status = await send(
        player.agent,
        `${a.url}/api/game/${game.id}/challenges/${challenge.id}/status/${id}`,
      )
      expect(await status.json()).toBe('Accepted')
    }, 5000)
    const judged = Date.now()
    await eventually(async () => expect(await scoreOnB()).toBeGreaterThan(0), 1000)
    expect(Date.now() - judged).toBeLessThan(1000)
    // And B answers the status poll of a submission A judged.
    const onB = await send(
      player.agent,
      `${b.url}/api/game/${game.id}/challenges/${challenge.id}/status/${id}`,
    )
    expect(await onB.json()).toBe('Accepted')
  })

  it('answers conditional scoreboard reads through the proxy with 304, whichever server gets them', async () => {
    const url = `${nginx.url}/api/game/${game.id}/scoreboard`
    // Both servers serve the same board (after the solves above have reached both).
    const etag = await eventually(async () => {
      const [onA, onB] = await Promise.all([
        fetch(`${a.url}/api/game/${game.id}/scoreboard`),
        fetch(`${b.url}/api/game/${game.id}/scoreboard`),
      ])
      expect(onA.headers.get('etag')).toBe(onB.headers.get('etag'))
      return onA.headers.get('etag')!
    }, 5000)
    const statuses: number[] = []
    const upstreams = new Set<string>()
    for (let i = 0; i < 30; i++) {
      const res = await fetch(url, { headers: { 'if-none-match': etag } })
      statuses.push(res.status)
      upstreams.add(res.headers.get('x-upstream') ?? '')
    }
    expect(upstreams).toEqual(new Set([`127.0.0.1:${a.port}`, `127.0.0.1:${b.port}`]))
    expect(statuses).toEqual(new Array(30).fill(304))
  })

  it('delivers a notice posted through one server to a hub client connected to the other', async () => {
    const connection = hub(`${b.url}/hub/user?game=${game.id}`)
    const got = noticesOf(connection)
    await connection.start()
    // real wait: the other server admits the hub connection (no hook to wait on from here)
    await new Promise((r) => setTimeout(r, 300)) // the hub admits it into the game's group
    const text = `via A ${Date.now()}`
    const res = await send(admin, `${a.url}/api/edit/games/${game.id}/notices`, 'POST', { content: text })
    expect(res.status).toBe(200)
    await eventually(async () => expect(got.map((n) => n.values[0])).toContain(text), 3000)
  })

  it('stops an API token on the next request on both servers when its creator is demoted on one', async () => {
    const creator = await registeredUser(t.app)
    await setRole(t.app, creator.userName, 3)
    const made = await send(creator.agent, `${a.url}/api/tokens`, 'POST', { name: 'two servers' })
    expect(made.status).toBe(200)
    const { token } = (await made.json()) as { token: string }
    const read = (url: string) =>
      fetch(`${url}/api/game/${game.id}/events`, { headers: { authorization: `Bearer ${token}` } })
    for (const s of [a, b]) expect((await read(s.url)).status).toBe(200)
    const [row] = await t.app.deps.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.normalizedUserName, creator.userName.toLowerCase()))
    const demoted = await send(admin, `${a.url}/api/admin/users/${row!.id}`, 'PUT', { role: 'User' })
    expect(demoted.status).toBe(200)
    // No waiting: the very next request on either server is refused.
    for (const s of [b, a]) expect((await read(s.url)).status).toBe(401)
  })

  it('signs a player out everywhere at once, and applies a switch saved on one server on the other', async () => {
    const player = await acceptedPlayer(t.app, admin, game.id)
    // B remembers the session (its lookups are cached for seconds) before A ends it.
    expect((await send(player.agent, `${b.url}/api/account/profile`)).status).toBe(200)
    expect((await send(player.agent, `${a.url}/api/account/logout`, 'POST')).status).toBe(200)
    await eventually(
      async () => expect((await send(player.agent, `${b.url}/api/account/profile`)).status).toBe(401),
      300,
    )

    const features = async (url: string) =>
      (await (await fetch(`${url}/api/ext/features`)).json()) as { bigScreen: boolean }
    expect((await features(b.url)).bigScreen).toBe(false)
    expect((await send(admin, `${a.url}/api/ext/features`, 'PUT', { bigScreen: true })).status).toBe(200)
    // Settings are otherwise re-read every 5 minutes: B hears of the save instead.
    await eventually(async () => expect((await features(b.url)).bigScreen).toBe(true), 500)
    await send(admin, `${a.url}/api/ext/features`, 'PUT', { bigScreen: false })
  })

  it('runs the container reaper on exactly one server', async () => {
    await eventually(
      async () => expect(ran(a, 'container reaper') + ran(b, 'container reaper')).toBeGreaterThan(0),
      5000,
    )
    const before = [ran(a, 'container reaper'), ran(b, 'container reaper')]
    // real wait: the reaper runs on both real server processes' intervals; one holds its lease
    await new Promise((r) => setTimeout(r, 3000))
    const during = [ran(a, 'container reaper') - before[0]!, ran(b, 'container reaper') - before[1]!]
    // Every second on the holder, never on the other.
    expect(Math.max(...during)).toBeGreaterThanOrEqual(2)
    expect(Math.min(...during)).toBe(0)
    expect([tookOver(a, 'container reaper'), tookOver(b, 'container reaper')].filter(Boolean)).toHaveLength(1)
  })

  it('loses no acknowledged submission when a server is killed during a burst, and its hub clients move to the other', {
    timeout: 60_000,
  }, async () => {
    // Hub clients through the proxy land on both servers.
    const clients = Array.from({ length: 6 }, () => hub(`${nginx.url}/hub/user?game=${game.id}`))
    const received = clients.map(noticesOf)
    let reconnects = 0
    for (const c of clients) c.onreconnected(() => reconnects++)
    await Promise.all(clients.map((c) => c.start()))

    // The reaper's holder is the one killed, so the test also sees its lease move.
    const victim = ran(a, 'container reaper') > 0 ? a : b
    const survivor = victim === a ? b : a
    const acknowledged: number[] = []
    let failed = 0
    let killed = false
    const burst = players.map(async (player, n) => {
      for (let i = 0; i < 25; i++) {
        const flag = i === 12 ? FLAG : `flag{wrong-${n}-${i}}`
        try {
          const res = await send(
            player.agent,
            `${nginx.url}/api/game/${game.id}/challenges/${challenge.id}`,
            'POST',
            {
              flag,
            },
          )
          if (res.status === 200) acknowledged.push((await res.json()) as number)
          else failed++
        } catch {
          failed++
        }
        if (!killed && acknowledged.length >= 60) {
          killed = true
          await killHard(victim)
        }
      }
    })
    await Promise.all(burst)
    expect(killed).toBe(true)
    // Nearly every submission was acknowledged: only those in flight on the victim failed, and
    // the proxy moved on to the survivor.
    expect(acknowledged.length + failed).toBe(8 * 25)
    expect(failed).toBeLessThanOrEqual(players.length)

    // Every acknowledged submission is stored and judged: the survivor's sweep takes those the
    // dead server had queued.
    await eventually(async () => {
      const rows = await t.app.deps.db
        .select({ id: submissions.id, status: submissions.status })
        .from(submissions)
        .where(inArray(submissions.id, acknowledged))
      expect(rows).toHaveLength(acknowledged.length)
      expect(rows.filter((r) => r.status === 'FlagSubmitted')).toEqual([])
    }, 30_000)

    // The hub clients the dead server had are back, on the survivor, and hear what follows.
    expect(reconnects).toBeGreaterThan(0)
    await eventually(async () => {
      for (const c of clients) expect(c.state).toBe(HubConnectionState.Connected)
    }, 10_000)
    // real wait: the servers admit the hub connections (no hook to wait on from here)
    await new Promise((r) => setTimeout(r, 300))
    const text = `after the kill ${Date.now()}`
    expect(
      (await send(admin, `${nginx.url}/api/edit/games/${game.id}/notices`, 'POST', { content: text })).status,
    ).toBe(200)
    await eventually(async () => {
      for (const got of received) expect(got.map((n) => n.values[0])).toContain(text)
    }, 3000)

    // The survivor runs the background jobs now.
    await eventually(async () => expect(tookOver(survivor, 'container reaper')).toBe(true), 10_000)
  })
})
