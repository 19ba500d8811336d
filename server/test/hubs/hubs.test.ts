import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  HttpTransportType,
  type HubConnection,
  HubConnectionBuilder,
  HubConnectionState,
  LogLevel,
} from '@microsoft/signalr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { createAdjustableClock } from '../../src/infra/clock/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  registeredUser,
  setRole,
  staticChallenge,
} from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestDatabase } from '../helpers/database.ts'

type App = Awaited<ReturnType<typeof buildApp>>
/** The servers' clock: the "board changed" window is moved past, not waited out. */
const clock = createAdjustableClock()

/** A real server on a local port, on a database that outlives it (for the restart test). */
async function startServer(
  database: Awaited<ReturnType<typeof createTestDatabase>>,
  dataDir: string,
  port = 0,
) {
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
  })
  const infra = await createInfra(config)
  const app = await buildApp({
    config,
    database,
    infra,
    logger: false,
    clock,
    hubTimings: { pingMs: 300, timeoutMs: 2000 },
  })
  await app.listen({ port, host: '127.0.0.1' })
  const address = app.server.address()
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`
  return {
    app,
    base,
    async stop() {
      await app.close()
      await closeInfra(infra)
    },
  }
}

let database: Awaited<ReturnType<typeof createTestDatabase>>
let dataDir: string
let server: Awaited<ReturnType<typeof startServer>>
let app: App
let admin: Agent
const open: HubConnection[] = []

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-hubs-'))
  database = await createTestDatabase()
  server = await startServer(database, dataDir)
  app = server.app
  admin = await adminAgent(app)
})
afterAll(async () => {
  await Promise.all(open.map((c) => c.stop()))
  await server.stop()
  await database.close()
  await rm(dataDir, { recursive: true, force: true })
})

const cookieOf = (agent: Agent) => `pennant_token=${agent.cookies.get('pennant_token')}`

/** The official client, as a browser would use it: cookie session, default negotiation. */
function client(
  hubPath: string,
  opts: { agent?: Agent; headers?: Record<string, string>; base?: string; retry?: number[] } = {},
) {
  const headers = { ...opts.headers, ...(opts.agent ? { Cookie: cookieOf(opts.agent) } : {}) }
  const connection = new HubConnectionBuilder()
    .withUrl(`${opts.base ?? server.base}${hubPath}`, { headers, transport: HttpTransportType.WebSockets })
    .withAutomaticReconnect(opts.retry ?? [0, 100, 300, 600, 1000, 1000, 1000])
    .configureLogging(LogLevel.None)
    .build()
  // The server here drops clients silent for 2 s.
  connection.keepAliveIntervalInMilliseconds = 500
  open.push(connection)
  return connection
}

/** Collects what a connection receives for `target`. */
function collect<T = Record<string, unknown>>(connection: HubConnection, target: string): T[] {
  const got: T[] = []
  connection.on(target, (payload: T) => got.push(payload))
  return got
}

/** Starts a connection and waits until the hub admitted it into `group`. */
async function joined(
  connection: HubConnection,
  hub: 'user' | 'monitor' | 'admin',
  group: string,
  before: number,
) {
  await connection.start()
  await eventually(async () => expect(app.hubs[hub].count(group)).toBeGreaterThan(before))
}

/** True when the server ends the connection (refused) instead of keeping it open. */
async function refused(connection: HubConnection): Promise<string> {
  const closed = new Promise<string>((resolve) => connection.onclose((err) => resolve(String(err))))
  try {
    await connection.start()
  } catch (err) {
    return String(err)
  }
  return closed
}

const iso = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+00:00$/

describe('negotiation', () => {
  it('answers the official client’s POST without an XSRF header, offering WebSockets', async () => {
    const player = await registeredUser(app)
    player.agent.xsrf = false
    const res = await player.agent.post('/hub/user/negotiate?negotiateVersion=1&game=1')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      negotiateVersion: 1,
      connectionId: expect.any(String),
      connectionToken: expect.any(String),
      availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
    })
    // Version 0 clients use the connection id as the token.
    expect(Object.keys((await player.agent.post('/hub/admin/negotiate')).json()).sort()).toEqual([
      'availableTransports',
      'connectionId',
    ])
    // The exemption is that route's alone: other state changes still need the header.
    expect((await player.agent.post('/api/account/logout')).statusCode).toBe(403)
    expect((await player.agent.post('/hub/user/negotiate?negotiateVersion=x')).statusCode).toBe(400)
    expect((await player.agent.get('/hub/user')).statusCode).toBe(404)
  })
})

describe('user hub', () => {
  it('pushes organiser, new-challenge and blood notices and "board changed" to anyone in the game', async () => {
    const game = await createGame(admin)
    const group = `Game_${game.id}`
    const anonymous = client(`/hub/user?game=${game.id}`)
    const notices = collect(anonymous, 'ReceivedGameNotice')
    const boards = collect<{ etag: string }>(anonymous, 'ReceivedScoreboardChanged')
    await joined(anonymous, 'user', group, 0)

    expect(
      (await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Hello **all**' })).statusCode,
    ).toBe(200)
    await eventually(async () =>
      expect(notices).toEqual([
        {
          id: expect.any(Number),
          time: expect.stringMatching(iso),
          type: 'Normal',
          values: ['Hello **all**'],
        },
      ]),
    )

    const c = await staticChallenge(admin, game.id, 'flag{live}')
    await eventually(async () =>
      expect(notices.at(-1)).toMatchObject({ type: 'NewChallenge', values: [c.title] }),
    )

    const player = await acceptedPlayer(app, admin, game.id)
    // The board is built by a first read; its rebuilds after solves are pushed.
    const first = await admin.get(`/api/game/${game.id}/scoreboard`)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{live}' })
    await eventually(async () =>
      expect(notices.at(-1)).toMatchObject({ type: 'FirstBlood', values: [expect.any(String), c.title] }),
    )
    await eventually(async () => expect(boards.at(-1)?.etag).not.toBe(first.headers.etag))
    // The pushed tag is the one the board now answers with: a conditional GET with it is a 304.
    const tag = boards.at(-1)!.etag
    const now = await admin.get(`/api/game/${game.id}/scoreboard`, { 'if-none-match': tag })
    expect(now.statusCode).toBe(304)
    expect(now.headers.etag).toBe(tag)

    // Edits and deletions of notices are not pushed.
    const count = notices.length
    const list = (await admin.get(`/api/edit/games/${game.id}/notices`)).json()
    await admin.put(`/api/edit/games/${game.id}/notices/${list[0].id}`, { content: 'edited' })
    await admin.delete(`/api/edit/games/${game.id}/notices/${list[0].id}`)
    // A new notice after them is the next thing heard.
    await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'after' })
    await eventually(async () => expect(notices).toHaveLength(count + 1))
    expect(notices.at(-1)).toMatchObject({ type: 'Normal', values: ['after'] })
  })

  it('coalesces "board changed": the first tag of a burst at once, the last one a second later', async () => {
    const game = await createGame(admin)
    const connection = client(`/hub/user?game=${game.id}`)
    const boards = collect<{ etag: string }>(connection, 'ReceivedScoreboardChanged')
    await joined(connection, 'user', `Game_${game.id}`, 0)
    for (const etag of ['a', 'b', 'c', 'd'])
      app.deps.infra.bus.publish('board.changed', { gameId: game.id, etag })
    await eventually(async () => expect(boards.map((b) => b.etag)).toEqual(['W/"a"']))
    // The window's second over: the last tag of the burst, once.
    clock.advance(1000)
    await eventually(async () => expect(boards.map((b) => b.etag)).toEqual(['W/"a"', 'W/"d"']))
    // Another second on, a new tag goes out at once, and nothing else was queued before it.
    clock.advance(1000)
    app.deps.infra.bus.publish('board.changed', { gameId: game.id, etag: 'e' })
    await eventually(async () => expect(boards.map((b) => b.etag)).toEqual(['W/"a"', 'W/"d"', 'W/"e"']))
  })

  it('pushes nothing of other games', async () => {
    const [a, b] = [await createGame(admin), await createGame(admin)]
    const connection = client(`/hub/user?game=${a.id}`)
    const notices = collect(connection, 'ReceivedGameNotice')
    await joined(connection, 'user', `Game_${a.id}`, 0)
    await admin.post(`/api/edit/games/${b.id}/notices`, { content: 'b only' })
    await admin.post(`/api/edit/games/${a.id}/notices`, { content: 'a only' })
    await eventually(async () => expect(notices.map((n) => n.values)).toEqual([['a only']]))
  })

  it('refuses a missing or unknown game, and a hidden one to everyone but admins', async () => {
    expect(await refused(client('/hub/user'))).toMatch(/closed with an error/)
    expect(await refused(client('/hub/user?game=999999'))).toMatch(/closed with an error/)
    // A malformed game id is a 400 before any upgrade (the client cannot tell why).
    expect(await refused(client('/hub/user?game=abc'))).toMatch(/WebSocket failed to connect/)
    expect(
      (
        await app.inject({
          url: '/hub/user?game=abc',
          headers: { connection: 'upgrade', upgrade: 'websocket' },
        })
      ).statusCode,
    ).toBe(400)
    const hidden = await createGame(admin, { hidden: true })
    const player = await registeredUser(app)
    expect(await refused(client(`/hub/user?game=${hidden.id}`, { agent: player.agent }))).toMatch(
      /closed with an error/,
    )
    const mine = client(`/hub/user?game=${hidden.id}`, { agent: admin })
    await joined(mine, 'user', `Game_${hidden.id}`, 0)
    expect(mine.state).toBe(HubConnectionState.Connected)
  })
})

describe('monitor hub', () => {
  it('streams game events and judged submissions to monitors and API tokens', async () => {
    const game = await createGame(admin)
    const group = `Game_${game.id}`
    const c = await staticChallenge(admin, game.id, 'flag{watch}')
    const monitor = await registeredUser(app)
    await setRole(app, monitor.userName, 2)
    const byCookie = client(`/hub/monitor?game=${game.id}`, { agent: monitor.agent })
    const token = (await admin.post('/api/tokens', { name: 'watcher' })).json().token as string
    const byToken = client(`/hub/monitor?game=${game.id}`, { headers: { Authorization: `Bearer ${token}` } })
    const events = collect(byCookie, 'ReceivedGameEvent')
    const submissions = collect(byCookie, 'ReceivedSubmissions')
    const tokenSubmissions = collect(byToken, 'ReceivedSubmissions')
    await joined(byCookie, 'monitor', group, 0)
    await joined(byToken, 'monitor', group, 1)

    const player = await acceptedPlayer(app, admin, game.id)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'wrong' })
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{watch}' })
    await eventually(async () => expect(submissions).toHaveLength(2))
    expect(submissions).toEqual([
      {
        answer: 'wrong',
        status: 'WrongAnswer',
        time: expect.stringMatching(iso),
        user: player.userName,
        team: expect.any(String),
        challenge: c.title,
      },
      {
        answer: 'flag{watch}',
        status: 'Accepted',
        time: expect.stringMatching(iso),
        user: player.userName,
        team: expect.any(String),
        challenge: c.title,
      },
    ])
    expect(events).toEqual([
      {
        type: 'FlagSubmit',
        values: ['WrongAnswer', 'wrong', c.title, String(c.id)],
        time: expect.stringMatching(iso),
        user: player.userName,
        team: expect.any(String),
      },
      {
        type: 'FlagSubmit',
        values: ['Accepted', 'flag{watch}', c.title, String(c.id)],
        time: expect.stringMatching(iso),
        user: player.userName,
        team: expect.any(String),
      },
    ])
    // What was pushed is what the monitor routes list.
    const listed = (await monitor.agent.get(`/api/game/${game.id}/submissions`)).json()
    expect(listed[0]).toMatchObject({ answer: 'flag{watch}', status: 'Accepted', team: submissions[1]!.team })
    await eventually(async () => expect(tokenSubmissions).toHaveLength(2))
  })

  it('refuses players, a bad token and a hidden game to a monitor', async () => {
    const game = await createGame(admin)
    const player = await registeredUser(app)
    expect(await refused(client(`/hub/monitor?game=${game.id}`, { agent: player.agent }))).toMatch(
      /closed with an error/,
    )
    expect(await refused(client(`/hub/monitor?game=${game.id}`))).toMatch(/closed with an error/)
    expect(
      await refused(
        client(`/hub/monitor?game=${game.id}`, { headers: { Authorization: 'Bearer nonsense' } }),
      ),
    ).toMatch(/closed with an error/)
    const monitor = await registeredUser(app)
    await setRole(app, monitor.userName, 2)
    const hidden = await createGame(admin, { hidden: true })
    expect(await refused(client(`/hub/monitor?game=${hidden.id}`, { agent: monitor.agent }))).toMatch(
      /closed with an error/,
    )
    expect(await refused(client('/hub/monitor?game=999999', { agent: monitor.agent }))).toMatch(
      /closed with an error/,
    )
  })
})

describe('admin hub', () => {
  it('streams log records to admins and refuses everyone else', async () => {
    const before = app.hubs.admin.count('Admins')
    const connection = client('/hub/admin', { agent: admin })
    const logs = collect(connection, 'ReceivedLog')
    await joined(connection, 'admin', 'Admins', before)
    const token = await admin.post('/api/tokens', { name: 'logged' })
    expect(token.statusCode).toBe(200)
    await eventually(async () =>
      expect(logs).toContainEqual({
        time: expect.stringMatching(iso),
        name: 'Admin',
        level: 'Information',
        ip: admin.ip,
        msg: expect.stringContaining('"logged"'),
        status: 'Success',
      }),
    )
    const monitor = await registeredUser(app)
    await setRole(app, monitor.userName, 2)
    expect(await refused(client('/hub/admin', { agent: monitor.agent }))).toMatch(/closed with an error/)
    expect(await refused(client('/hub/admin'))).toMatch(/closed with an error/)
  })
})

describe('the wire', () => {
  it('keeps an idle connection alive with pings, and drops a client that goes silent', async () => {
    const game = await createGame(admin)
    // The client gives up when the server is silent for 1 s: pings (every 300 ms here) prevent it.
    const alive = client(`/hub/user?game=${game.id}`)
    alive.serverTimeoutInMilliseconds = 1000
    alive.keepAliveIntervalInMilliseconds = 200
    await joined(alive, 'user', `Game_${game.id}`, 0)
    // real wait: SignalR keep-alive pings over a real socket (the client library's timers)
    await new Promise((r) => setTimeout(r, 1500))
    expect(alive.state).toBe(HubConnectionState.Connected)

    // A client that stops sending is dropped after the server's timeout (2 s here).
    const silent = client(`/hub/user?game=${game.id}`, { retry: [] })
    silent.keepAliveIntervalInMilliseconds = 60_000
    const closed = new Promise<string>((resolve) => silent.onclose((err) => resolve(String(err))))
    await joined(silent, 'user', `Game_${game.id}`, 1)
    expect(await closed).toMatch(/Server timeout elapsed without receiving a message from the client/)
  })

  it('answers a call to a method the hub does not have with an error', async () => {
    const game = await createGame(admin)
    const connection = client(`/hub/user?game=${game.id}`)
    await joined(connection, 'user', `Game_${game.id}`, 0)
    await expect(connection.invoke('Anything')).rejects.toThrow(/Method does not exist/)
    expect(connection.state).toBe(HubConnectionState.Connected)
  })

  it('reconnects after a server restart and receives pushes again', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'pennant-hubs-restart-'))
    const first = await startServer(database, own)
    const port = Number(new URL(first.base).port)
    const game = await createGame(admin)
    const connection = client(`/hub/user?game=${game.id}`, { base: first.base })
    const notices = collect(connection, 'ReceivedGameNotice')
    const reconnected = new Promise<void>((resolve) => connection.onreconnected(() => resolve()))
    await connection.start()
    await eventually(async () => expect(first.app.hubs.user.count(`Game_${game.id}`)).toBe(1))
    await first.stop()
    const second = await startServer(database, own, port)
    try {
      await reconnected
      await eventually(async () => expect(second.app.hubs.user.count(`Game_${game.id}`)).toBe(1))
      const res = await second.app.inject({
        method: 'POST',
        url: `/api/edit/games/${game.id}/notices`,
        headers: {
          cookie: `${cookieOf(admin)}; XSRF-TOKEN=x`,
          'x-xsrf-token': 'x',
          'content-type': 'application/json',
        },
        payload: JSON.stringify({ content: 'after restart' }),
      })
      expect(res.statusCode).toBe(200)
      await eventually(async () => expect(notices.map((n) => n.values)).toEqual([['after restart']]))
    } finally {
      await connection.stop()
      await second.stop()
      await rm(own, { recursive: true, force: true })
    }
  })
})
