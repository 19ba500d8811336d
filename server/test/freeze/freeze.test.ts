import { HttpTransportType, type HubConnection, HubConnectionBuilder, LogLevel } from '@microsoft/signalr'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  registeredUser,
  setRole,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
let base: string
const open: HubConnection[] = []
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
  base = await t.app.listen({ host: '127.0.0.1', port: 0 })
})
afterAll(async () => {
  await Promise.all(open.map((c) => c.stop()))
  await t.close()
})

const HOUR = 3600_000
const switches = (on: Record<string, boolean>) => admin.put('/api/ext/features', on)
/** The server's time: tests move it forward (`t.clock.advance`) rather than wait. */
const now = () => t.clock.now()

/** The game editor's save: the required fields and the freeze ones. */
async function editGame(gameId: number, fields: Record<string, unknown>) {
  const current = (await admin.get(`/api/edit/games/${gameId}`)).json()
  return admin.put(`/api/edit/games/${gameId}`, {
    title: current.title,
    start: current.start,
    end: current.end,
    ...fields,
  })
}

async function submit(player: TestUser, gameId: number, challengeId: number, flag: string) {
  const res = await player.agent.post(`/api/game/${gameId}/challenges/${challengeId}`, { flag })
  expect(res.statusCode, res.body).toBe(200)
  await t.app.deps.services.judge.drain()
  const status = await player.agent.get(`/api/game/${gameId}/challenges/${challengeId}/status/${res.json()}`)
  return status.json() as string
}

/** A user-hub connection (cookie session, as the browser's) and what it hears. */
async function hubOf(gameId: number, agent?: Agent) {
  const headers: Record<string, string> = agent
    ? { Cookie: `pennant_token=${agent.cookies.get('pennant_token')}` }
    : {}
  const connection = new HubConnectionBuilder()
    .withUrl(`${base}/hub/user?game=${gameId}`, { headers, transport: HttpTransportType.WebSockets })
    .configureLogging(LogLevel.None)
    .build()
  open.push(connection)
  const heard: { target: string; payload: unknown }[] = []
  for (const target of ['ReceivedGameNotice', 'ReceivedScoreboardChanged'])
    connection.on(target, (payload: unknown) => heard.push({ target, payload }))
  const before = t.app.hubs.user.count(`Game_${gameId}`)
  await connection.start()
  await eventually(async () => expect(t.app.hubs.user.count(`Game_${gameId}`)).toBeGreaterThan(before))
  return heard
}

/** Everything a reader sees on the player-visible routes, with the validators they answer with. */
async function snapshot(agent: Agent, gameId: number, challengeIds: number[], player: boolean) {
  const get = async (url: string) => {
    const res = await agent.get(url)
    return {
      status: res.statusCode,
      body: res.body,
      etag: res.headers.etag ?? null,
      lastModified: res.headers['last-modified'] ?? null,
    }
  }
  const routes = [
    `/api/game/${gameId}`,
    `/api/game/${gameId}/scoreboard`,
    `/api/game/${gameId}/notices`,
    `/api/ext/games/${gameId}/freeze`,
    `/api/ext/games/${gameId}/ctftime`,
    '/api/game?count=50',
    ...(player
      ? [
          `/api/game/${gameId}/details`,
          ...challengeIds.map((id) => `/api/game/${gameId}/challenges/${id}`),
          `/api/game/${gameId}/scoreboardsheet`,
          `/api/game/${gameId}/events`,
          `/api/game/${gameId}/submissions`,
        ]
      : []),
  ]
  const out: Record<string, Awaited<ReturnType<typeof get>>> = {}
  for (const url of routes) out[url] = await get(url)
  return out
}

describe('scoreboard freeze', () => {
  it('shows players and anonymous readers nothing that happened after the freeze, on any route or hub message', async () => {
    await switches({ freeze: true, ctftime: true })
    const game = await createGame(admin)
    const [c1, c2] = [
      await staticChallenge(admin, game.id, 'flag{one}'),
      await staticChallenge(admin, game.id, 'flag{two}'),
    ]
    const [a, b, c] = [
      await acceptedPlayer(t.app, admin, game.id),
      await acceptedPlayer(t.app, admin, game.id),
      await acceptedPlayer(t.app, admin, game.id),
    ]
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    const anonymous = new Agent(t.app)

    // Before the freeze: A takes the first blood of c1.
    expect(await submit(a, game.id, c1.id, 'flag{one}')).toBe('Accepted')
    const freezeAt = now()
    expect((await editGame(game.id, { freezeAt })).statusCode).toBe(200)
    t.clock.advance(20)
    // Boards are built on first read; let the true one settle before the "before" picture.
    await eventually(async () =>
      expect((await admin.get(`/api/game/${game.id}/scoreboard`)).json().items[0].solvedCount).toBe(1),
    )
    const ids = [c1.id, c2.id]
    const beforeB = await snapshot(b.agent, game.id, ids, true)
    const beforeAnon = await snapshot(anonymous, game.id, ids, false)
    expect(JSON.parse(beforeB[`/api/ext/games/${game.id}/freeze`]!.body)).toEqual({
      enabled: true,
      freezeAt,
      frozen: true,
    })
    const heardB = await hubOf(game.id, b.agent)
    const heardAnon = await hubOf(game.id)

    // After the freeze: A takes the first blood of c2, C solves c1 (moving its dynamic score).
    expect(await submit(a, game.id, c2.id, 'flag{two}')).toBe('Accepted')
    expect(await submit(c, game.id, c1.id, 'flag{one}')).toBe('Accepted')
    // The judge and the true board go on: admins and monitors see both solves and the blood.
    for (const staff of [admin, monitor.agent]) {
      await eventually(async () => {
        const board = (await staff.get(`/api/game/${game.id}/scoreboard`)).json()
        expect(board.items.map((i: { solvedCount: number }) => i.solvedCount).sort()).toEqual([0, 1, 2])
        expect(board.challenges.Web.find((x: { id: number }) => x.id === c1.id).solved).toBe(2)
        expect(board.challenges.Web.find((x: { id: number }) => x.id === c2.id).bloods).toHaveLength(1)
      })
    }
    // Past the hub's one-second coalescing window of "board changed": a held-back push goes now.
    t.clock.advance(1500)

    const afterB = await snapshot(b.agent, game.id, ids, true)
    const afterAnon = await snapshot(anonymous, game.id, ids, false)
    // Route by route: the same status, body, ETag and Last-Modified as before.
    for (const [url, before] of Object.entries(beforeB)) expect(afterB[url], `player ${url}`).toEqual(before)
    for (const [url, before] of Object.entries(beforeAnon))
      expect(afterAnon[url], `anonymous ${url}`).toEqual(before)
    // A conditional read with the old tag is answered "not modified".
    for (const url of [`/api/game/${game.id}/scoreboard`, `/api/game/${game.id}/details`]) {
      const res = await b.agent.get(url, { 'if-none-match': beforeB[url]!.etag! })
      expect(res.statusCode, url).toBe(304)
    }
    // What the frozen picture holds: A's pre-freeze solve only, at the score of one solve.
    const frozen = JSON.parse(afterB[`/api/game/${game.id}/scoreboard`]!.body)
    expect(frozen.updateTimeUtc).toBe(freezeAt)
    expect(frozen.items.find((i: { id: number }) => i.id === a.teamId)).toMatchObject({ solvedCount: 1 })
    expect(frozen.challenges.Web.map((x: { solved: number }) => x.solved).sort()).toEqual([0, 1])
    // The monitor-only routes stay closed to players.
    for (const url of ['scoreboardsheet', 'events', 'submissions'])
      expect(afterB[`/api/game/${game.id}/${url}`]!.status).toBe(403)
    // No hub message reached a player or an anonymous reader since the freeze: an organiser's
    // notice, sent after everything else, is the first thing either connection hears.
    const notice = await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Still frozen' })
    expect(notice.statusCode, notice.body).toBe(200)
    for (const heard of [heardB, heardAnon]) {
      await eventually(async () => expect(heard).toHaveLength(1))
      expect(heard).toEqual([
        { target: 'ReceivedGameNotice', payload: expect.objectContaining({ values: ['Still frozen'] }) },
      ])
    }

    // A still sees its own solve of c2 as solved, and its result.
    const details = (await a.agent.get(`/api/game/${game.id}/details`)).json()
    expect(details.rank.solvedChallenges.map((s: { id: number }) => s.id).sort()).toEqual(ids.sort())
    // …as a plain solve at the frozen points (a blood would say nobody else solved it since).
    expect(details.rank.solvedChallenges.find((s: { id: number }) => s.id === c2.id)).toMatchObject({
      type: 'Normal',
      score: 1000,
    })
    // …while the challenge counts it sees are the frozen ones.
    expect(details.challenges.Web.find((x: { id: number }) => x.id === c2.id).solved).toBe(0)

    // The reveal publishes the true board: to players, and on the hub.
    const revealed = await admin.post(`/api/ext/games/${game.id}/reveal`)
    expect(revealed.statusCode, revealed.body).toBe(200)
    expect(revealed.json().revealAt).toBeGreaterThanOrEqual(freezeAt)
    const board = (await b.agent.get(`/api/game/${game.id}/scoreboard`)).json()
    expect(board.items.find((i: { id: number }) => i.id === a.teamId).solvedCount).toBe(2)
    // The blood held back is posted, at the time of its solve.
    const notices = (await b.agent.get(`/api/game/${game.id}/notices`)).json()
    const bloods = notices.filter((n: { type: string }) => n.type === 'FirstBlood')
    expect(bloods).toHaveLength(2)
    expect(bloods[0]).toMatchObject({ values: [expect.any(String), c2.title] })
    expect(bloods[0].time).toBeGreaterThanOrEqual(freezeAt)
    expect(notices.filter((n: { type: string }) => n.type === 'SecondBlood')).toEqual([
      expect.objectContaining({ values: [expect.any(String), c1.title] }),
    ])
    await eventually(async () =>
      // The organiser's notice, then A's first blood of c2 and C's second blood of c1.
      expect(heardB.filter((h) => h.target === 'ReceivedGameNotice')).toHaveLength(3),
    )
    await eventually(async () => expect(heardB.map((h) => h.target)).toContain('ReceivedScoreboardChanged'))
    expect((await b.agent.get(`/api/ext/games/${game.id}/freeze`)).json()).toEqual({
      enabled: true,
      freezeAt: null,
      frozen: false,
    })
    // A second reveal has nothing to reveal.
    expect((await admin.post(`/api/ext/games/${game.id}/reveal`)).json()).toEqual({
      title: 'The scoreboard of this game is not frozen',
      status: 400,
    })
  })

  it('holds bloods back entirely, so not even a gap in the notice ids tells of them', async () => {
    await switches({ freeze: true })
    const game = await createGame(admin)
    const c1 = await staticChallenge(admin, game.id, 'flag{n}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    const other = await acceptedPlayer(t.app, admin, game.id)
    expect((await editGame(game.id, { freezeAt: now() })).statusCode).toBe(200)
    t.clock.advance(10)
    const before = (await other.agent.get(`/api/game/${game.id}/notices`)).json()
    const lastId = Math.max(...before.map((n: { id: number }) => n.id))
    expect(await submit(player, game.id, c1.id, 'flag{n}')).toBe('Accepted')
    expect((await other.agent.get(`/api/game/${game.id}/notices`)).json()).toEqual(before)
    const posted = (
      await admin.post(`/api/edit/games/${game.id}/notices`, { content: 'Half an hour left' })
    ).json()
    expect(posted.id).toBe(lastId + 1)
  })

  it('reveals by itself at revealAt: the timed job posts the bloods held back, once', async () => {
    await switches({ freeze: true })
    const game = await createGame(admin)
    const c1 = await staticChallenge(admin, game.id, 'flag{auto}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await editGame(game.id, { freezeAt: now(), revealAt: now() + 700 })).statusCode).toBe(200)
    t.clock.advance(10)
    expect(await submit(player, game.id, c1.id, 'flag{auto}')).toBe('Accepted')
    const bloods = async () =>
      (await player.agent.get(`/api/game/${game.id}/notices`))
        .json()
        .filter((n: { type: string }) => n.type === 'FirstBlood')
    expect(await bloods()).toEqual([])
    expect(await t.app.deps.services.freeze.revealDue()).toBe(0)
    t.clock.advance(800)
    expect(await t.app.deps.services.freeze.revealDue()).toBe(1)
    expect(await t.app.deps.services.freeze.revealDue()).toBe(0)
    expect(await bloods()).toEqual([expect.objectContaining({ values: [expect.any(String), c1.title] })])
    await eventually(async () =>
      expect(
        (await new Agent(t.app).get(`/api/game/${game.id}/scoreboard`)).json().items[0].solvedCount,
      ).toBe(1),
    )
  })

  it('is ignored while the freeze switch is off', async () => {
    await switches({ freeze: true })
    const game = await createGame(admin)
    const c1 = await staticChallenge(admin, game.id, 'flag{off}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await editGame(game.id, { freezeAt: now() })).statusCode).toBe(200)
    await switches({ freeze: false })
    t.clock.advance(10)
    expect(await submit(player, game.id, c1.id, 'flag{off}')).toBe('Accepted')
    await eventually(async () =>
      expect(
        (await new Agent(t.app).get(`/api/game/${game.id}/scoreboard`)).json().items[0].solvedCount,
      ).toBe(1),
    )
    expect((await new Agent(t.app).get(`/api/ext/games/${game.id}/freeze`)).json()).toEqual({
      enabled: false,
      freezeAt: null,
      frozen: false,
    })
    expect((await admin.post(`/api/ext/games/${game.id}/reveal`)).statusCode).toBe(400)
    // Turned on again, the freeze holds from its time on.
    await switches({ freeze: true })
    const board = (await new Agent(t.app).get(`/api/game/${game.id}/scoreboard`)).json()
    expect(board.items[0].solvedCount).toBe(0)
  })

  it('takes freezeAt and revealAt in the game editor, within start..end, and refuses others with a 400', async () => {
    const start = now() - HOUR
    const end = now() + HOUR
    const game = await createGame(admin, { start, end })
    expect((await admin.get(`/api/edit/games/${game.id}`)).json()).toMatchObject({
      freezeAt: null,
      revealAt: null,
    })
    const ok = await editGame(game.id, { freezeAt: end - 60_000, revealAt: end + 60_000 })
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json()).toMatchObject({ freezeAt: end - 60_000, revealAt: end + 60_000 })
    // Left out keeps it; other fields still save.
    expect((await editGame(game.id, { summary: 'x' })).json()).toMatchObject({ freezeAt: end - 60_000 })
    for (const bad of [
      { freezeAt: start - 1 },
      { freezeAt: end },
      { freezeAt: end + HOUR },
      { freezeAt: end - 60_000, revealAt: end - 120_000 },
    ]) {
      const res = await editGame(game.id, bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
      expect(res.json()).toEqual({ title: expect.stringContaining('freeze'), status: 400 })
    }
    for (const bad of [{ freezeAt: 'soon' }, { freezeAt: 1.5 }, { revealAt: {} }]) {
      const res = await editGame(game.id, bad)
      expect(res.statusCode, JSON.stringify(bad)).toBe(400)
      expect(res.json()).toMatchObject({ status: 400 })
    }
    // Moving the end before the freeze is refused too.
    expect((await editGame(game.id, { end: end - 120_000 })).statusCode).toBe(400)
    expect((await editGame(game.id, { freezeAt: null, revealAt: null })).json()).toMatchObject({
      freezeAt: null,
      revealAt: null,
    })
    // Creating a game checks it as well.
    expect(
      (await admin.post('/api/edit/games', { title: 'f', start, end, freezeAt: start - 5 })).statusCode,
    ).toBe(400)
  })

  it('lets only admins reveal, and a revealAt that has come reveals by itself', async () => {
    await switches({ freeze: true })
    const game = await createGame(admin)
    await editGame(game.id, { freezeAt: now() - 1000 })
    const user = await registeredUser(t.app)
    const mon = await registeredUser(t.app)
    await setRole(t.app, mon.userName, 2)
    expect((await new Agent(t.app).post(`/api/ext/games/${game.id}/reveal`)).statusCode).toBe(401)
    expect((await user.agent.post(`/api/ext/games/${game.id}/reveal`)).statusCode).toBe(403)
    expect((await mon.agent.post(`/api/ext/games/${game.id}/reveal`)).statusCode).toBe(403)
    expect((await admin.post('/api/ext/games/999999/reveal')).statusCode).toBe(404)
    expect((await admin.post('/api/ext/games/abc/reveal')).statusCode).toBe(400)
    expect((await user.agent.get(`/api/ext/games/${game.id}/freeze`)).json().frozen).toBe(true)
    await editGame(game.id, { revealAt: now() + 300 })
    t.clock.advance(400)
    expect((await user.agent.get(`/api/ext/games/${game.id}/freeze`)).json().frozen).toBe(false)
    // Hidden games are not found for players.
    await editGame(game.id, { hidden: true })
    expect((await user.agent.get(`/api/ext/games/${game.id}/freeze`)).statusCode).toBe(404)
  })
})

describe('CTFtime feed', () => {
  it('is not found while the ctftime switch is off', async () => {
    await switches({ ctftime: false })
    const game = await createGame(admin)
    const res = await new Agent(t.app).get(`/api/ext/games/${game.id}/ctftime`)
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ status: 404 })
  })

  it('gives the standings per game and per division, public like the board, and honours the freeze', async () => {
    await switches({ ctftime: true, freeze: true })
    const game = await createGame(admin)
    const c1 = await staticChallenge(admin, game.id, 'flag{ct}')
    const players: (TestUser & { teamId: number })[] = []
    for (let i = 0; i < 3; i++) players.push(await acceptedPlayer(t.app, admin, game.id))
    // Divisions afterwards, by hand: the factory joins without one.
    expect((await editGame(game.id, { divisions: ['Students', 'Open'] })).statusCode).toBe(200)
    const { participations } = await import('../../src/db/schema.ts')
    const { eq } = await import('drizzle-orm')
    for (const [i, p] of players.entries())
      await t.app.deps.db
        .update(participations)
        .set({ division: i === 1 ? 'Open' : 'Students' })
        .where(eq(participations.teamId, p.teamId))
    t.app.deps.services.scoreboard.forget(game.id)
    expect(await submit(players[1]!, game.id, c1.id, 'flag{ct}')).toBe('Accepted')
    expect(await submit(players[2]!, game.id, c1.id, 'flag{ct}')).toBe('Accepted')
    const anon = new Agent(t.app)
    const feed = await eventually(async () => {
      const res = (await anon.get(`/api/ext/games/${game.id}/ctftime`)).json()
      expect(res.standings[0].score).toBeGreaterThan(0)
      expect(res.standings[1].score).toBeGreaterThan(0)
      return res
    })
    const names = (await anon.get(`/api/game/${game.id}/scoreboard`))
      .json()
      .items.map((i: { name: string }) => i.name)
    expect(feed.standings).toEqual([
      { pos: 1, team: names[0], score: expect.any(Number) },
      { pos: 2, team: names[1], score: expect.any(Number) },
      { pos: 3, team: names[2], score: 0 },
    ])
    const students = (await anon.get(`/api/ext/games/${game.id}/ctftime?division=Students`)).json()
    expect(students.standings.map((s: { pos: number }) => s.pos)).toEqual([1, 2])
    expect(students.standings[1].score).toBe(0)
    expect((await anon.get(`/api/ext/games/${game.id}/ctftime?division=Open`)).json().standings).toHaveLength(
      1,
    )
    // An unknown division, or a bad one, is a 400; an unknown game a 404.
    expect((await anon.get(`/api/ext/games/${game.id}/ctftime?division=Nope`)).statusCode).toBe(400)
    expect((await anon.get(`/api/ext/games/${game.id}/ctftime?division=`)).statusCode).toBe(400)
    expect((await anon.get('/api/ext/games/999999/ctftime')).statusCode).toBe(404)

    // Frozen: a solve since does not reach the feed, for admins either (the feed is published).
    await editGame(game.id, { freezeAt: now() })
    t.clock.advance(10)
    const frozen = (await anon.get(`/api/ext/games/${game.id}/ctftime`)).json()
    expect(await submit(players[0]!, game.id, c1.id, 'flag{ct}')).toBe('Accepted')
    await eventually(async () =>
      expect((await admin.get(`/api/game/${game.id}/scoreboard`)).json().items[2].score).toBeGreaterThan(0),
    )
    expect((await anon.get(`/api/ext/games/${game.id}/ctftime`)).json()).toEqual(frozen)
    expect((await admin.get(`/api/ext/games/${game.id}/ctftime`)).json()).toEqual(frozen)

    // Hidden: not found but for admins.
    await editGame(game.id, { hidden: true })
    expect((await anon.get(`/api/ext/games/${game.id}/ctftime`)).statusCode).toBe(404)
    expect((await players[0]!.agent.get(`/api/ext/games/${game.id}/ctftime`)).statusCode).toBe(404)
    expect((await admin.get(`/api/ext/games/${game.id}/ctftime`)).statusCode).toBe(200)
  })

  it('is in the OpenAPI document', async () => {
    const doc = (await new Agent(t.app).get('/openapi/v1.json')).json()
    for (const path of [
      '/api/ext/games/{id}/ctftime',
      '/api/ext/games/{id}/reveal',
      '/api/ext/games/{id}/freeze',
    ])
      expect(doc.paths[path], path).toBeDefined()
    expect(
      doc.paths['/api/edit/games/{id}'].put.requestBody.content['application/json'].schema.properties,
    ).toHaveProperty('freezeAt')
  })
})
