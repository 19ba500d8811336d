import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { openDatabase } from '../../src/db/index.ts'
import { gameNotices } from '../../src/db/schema.ts'
import { NoticeTypeValues } from '../../src/http/enums.ts'
import type { Clock } from '../../src/infra/clock/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  eventually,
  registeredUser,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const HOUR = 3600_000
const sorted = (ids: number[]) => [...ids].sort((a, b) => a - b)
const setSwitch = async (on: boolean) =>
  expect((await admin.put('/api/ext/features', { scheduledRelease: on })).statusCode).toBe(200)

const edit = (gameId: number, id: number, body: unknown) =>
  admin.put(`/api/edit/games/${gameId}/challenges/${id}`, body)

/** The challenge ids a team sees in its challenge list. */
async function listed(player: TestUser, gameId: number, agent = player.agent): Promise<number[]> {
  const res = await agent.get(`/api/game/${gameId}/details`)
  expect(res.statusCode, res.body).toBe(200)
  return Object.values(res.json().challenges as Record<string, { id: number }[]>)
    .flat()
    .map((c) => c.id)
}

async function onBoard(gameId: number, agent = new Agent(t.app)): Promise<number[]> {
  const res = await agent.get(`/api/game/${gameId}/scoreboard`)
  return Object.values(res.json().challenges as Record<string, { id: number }[]>)
    .flat()
    .map((c) => c.id)
}

async function newChallengeNotices(gameId: number, app: App = t.app) {
  return app.deps.db
    .select()
    .from(gameNotices)
    .where(and(eq(gameNotices.gameId, gameId), eq(gameNotices.type, NoticeTypeValues.NewChallenge)))
}

describe('the schedule in the challenge editor (PUT/GET /api/edit/games/{id}/challenges/{cid})', () => {
  it('stores openAt and closeAt, shows them in the detail and the list, keeps them when absent, clears them with null', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    expect(c).toMatchObject({ openAt: null, closeAt: null })
    const openAt = t.clock.now() + HOUR
    const closeAt = openAt + HOUR
    const res = await edit(game.id, c.id, { openAt, closeAt })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toMatchObject({ openAt, closeAt })
    expect((await edit(game.id, c.id, { title: 'Renamed' })).json()).toMatchObject({ openAt, closeAt })
    expect((await admin.get(`/api/edit/games/${game.id}/challenges/${c.id}`)).json()).toMatchObject({
      openAt,
      closeAt,
    })
    const list = (await admin.get(`/api/edit/games/${game.id}/challenges`)).json()
    expect(list).toEqual([expect.objectContaining({ id: c.id, openAt, closeAt })])
    expect((await edit(game.id, c.id, { openAt: null })).json()).toMatchObject({ openAt: null, closeAt })
    expect((await edit(game.id, c.id, { closeAt: null })).json()).toMatchObject({
      openAt: null,
      closeAt: null,
    })
  })

  it('refuses a close that does not follow the open, and times that are not epoch ms, with a 400', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const at = t.clock.now() + HOUR
    for (const body of [
      { openAt: at, closeAt: at },
      { openAt: at, closeAt: at - 1 },
      { openAt: -1 },
      { closeAt: 1.5 },
      { openAt: '2026-01-01T00:00:00Z' },
      { closeAt: true },
      { openAt: 9e15 },
    ]) {
      const res = await edit(game.id, c.id, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toEqual({ title: expect.any(String), status: 400 })
    }
    expect((await edit(game.id, c.id, { openAt: at, closeAt: at })).json().title).toBe(
      'The closing time must come after the opening time',
    )
    // Against the stored value too: a close set alone before the stored open.
    expect((await edit(game.id, c.id, { openAt: at })).statusCode).toBe(200)
    expect((await edit(game.id, c.id, { closeAt: at - HOUR })).statusCode).toBe(400)
    expect((await edit(game.id, c.id, { openAt: null, closeAt: at - HOUR })).statusCode).toBe(200)
    expect((await admin.get(`/api/edit/games/${game.id}/challenges/${c.id}`)).json()).toMatchObject({
      openAt: null,
      closeAt: at - HOUR,
    })
  })

  it('is for admins only, and nothing changes', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const url = `/api/edit/games/${game.id}/challenges/${c.id}`
    expect((await new Agent(t.app).put(url, { openAt: 1 })).statusCode).toBe(401)
    const user = await registeredUser(t.app)
    expect((await user.agent.put(url, { openAt: 1 })).statusCode).toBe(403)
    expect((await admin.get(url)).json()).toMatchObject({ openAt: null })
  })
})

describe('scheduled release for players', () => {
  it('with the switch off, openAt and closeAt change nothing (GZCTF behaviour)', async () => {
    await setSwitch(false)
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{off}', {
      openAt: t.clock.now() + HOUR,
    })
    const closed = await staticChallenge(admin, game.id, 'flag{off2}', {
      closeAt: t.clock.now() - 1000,
      openAt: t.clock.now() - HOUR,
    })
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect(await listed(player, game.id)).toEqual(expect.arrayContaining([c.id, closed.id]))
    const res = await player.agent.post(`/api/game/${game.id}/challenges/${closed.id}`, {
      flag: 'flag{off2}',
    })
    expect(res.statusCode).toBe(200)
  })

  it('hides a challenge before openAt from the list, details, scoreboard, submit and containers', async () => {
    await setSwitch(true)
    const game = await createGame(admin)
    const visible = await staticChallenge(admin, game.id, 'flag{v}')
    const later = await staticChallenge(admin, game.id, 'flag{later}', { openAt: t.clock.now() + HOUR })
    const box = await createChallenge(admin, game.id, { type: 'DynamicContainer', title: 'Box' })
    await edit(game.id, box.id, { containerImage: 'nginx', isEnabled: true, openAt: t.clock.now() + HOUR })
    const player = await acceptedPlayer(t.app, admin, game.id)

    expect(await listed(player, game.id)).toEqual([visible.id])
    expect(await onBoard(game.id)).toEqual([visible.id])
    const detail = await player.agent.get(`/api/game/${game.id}/challenges/${later.id}`)
    expect(detail.statusCode).toBe(404)
    expect(detail.json()).toEqual({ title: 'Challenge not found', status: 404 })
    const sub = await player.agent.post(`/api/game/${game.id}/challenges/${later.id}`, {
      flag: 'flag{later}',
    })
    expect(sub.statusCode).toBe(404)
    expect(sub.json()).toEqual({ title: 'Challenge not found', status: 404 })
    const container = await player.agent.post(`/api/game/${game.id}/container/${box.id}`)
    expect(container.statusCode).toBe(404)
    expect(container.json()).toEqual({ title: 'Challenge not found', status: 404 })
    // The refused flag was not counted or recorded.
    const subs = (await admin.get(`/api/game/${game.id}/submissions`)).json()
    expect(subs).toEqual([])
    // Admins still see it in the editor, with its schedule.
    const list = (await admin.get(`/api/edit/games/${game.id}/challenges`)).json()
    expect(list.find((x: { id: number }) => x.id === later.id).openAt).toBeGreaterThan(t.clock.now())
  })

  it('shows it at openAt with no restart, board rebuild or job: the clock alone decides', async () => {
    await setSwitch(true)
    const game = await createGame(admin)
    const visible = await staticChallenge(admin, game.id, 'flag{v}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect(await listed(player, game.id)).toEqual([visible.id])
    const later = await staticChallenge(admin, game.id, 'flag{soon}', { openAt: t.clock.now() + HOUR })
    expect(await listed(player, game.id)).toEqual([visible.id])
    expect(await onBoard(game.id)).toEqual([visible.id])
    t.clock.advance(HOUR)
    // (The board the enabling marked stale is being rebuilt meanwhile.)
    await eventually(async () =>
      expect(sorted(await listed(player, game.id))).toEqual(sorted([visible.id, later.id])),
    )
    expect(sorted(await onBoard(game.id))).toEqual(sorted([visible.id, later.id]))
    expect((await player.agent.get(`/api/game/${game.id}/challenges/${later.id}`)).statusCode).toBe(200)
    const sub = await player.agent.post(`/api/game/${game.id}/challenges/${later.id}`, { flag: 'flag{soon}' })
    expect(sub.statusCode).toBe(200)
  })

  it('refuses flags from closeAt on with a clear answer, and the challenge stays visible', async () => {
    await setSwitch(true)
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{closed}', {
      openAt: t.clock.now() - HOUR,
      closeAt: t.clock.now() - 1000,
    })
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect(await listed(player, game.id)).toEqual([c.id])
    expect((await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).statusCode).toBe(200)
    const res = await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{closed}' })
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ title: 'This challenge is closed: it no longer takes flags', status: 400 })
    const detail = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
    expect(detail.attempts).toBe(0)
    // Reopened by the organisers: flags are taken again.
    await edit(game.id, c.id, { closeAt: null })
    expect(
      (await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{closed}' }))
        .statusCode,
    ).toBe(200)
  })
})

describe('the new-challenge notice of a scheduled opening', () => {
  it('is not posted on enabling before openAt (nor a hint notice), and is posted once when it opens', async () => {
    await setSwitch(true)
    const game = await createGame(admin)
    const openAt = t.clock.now() + 1000
    const c = await staticChallenge(admin, game.id, 'flag{n}', { openAt })
    await edit(game.id, c.id, { hints: ['look closer'] })
    expect(await newChallengeNotices(game.id)).toEqual([])
    const player = await acceptedPlayer(t.app, admin, game.id)
    const seen = (await player.agent.get(`/api/game/${game.id}/notices`)).json()
    expect(seen).toEqual([])
    const { release } = t.app.deps.services
    await release.releaseDue(new Date(openAt - 1))
    expect(await newChallengeNotices(game.id)).toEqual([])
    await release.releaseDue(new Date(openAt))
    expect(await newChallengeNotices(game.id)).toHaveLength(1)
    await release.releaseDue(new Date(openAt + 5000))
    expect(await newChallengeNotices(game.id)).toHaveLength(1)
    const notices = (await player.agent.get(`/api/game/${game.id}/notices`)).json()
    expect(notices).toEqual([expect.objectContaining({ type: 'NewChallenge', values: [c.title] })])
  })

  it('is posted at once when an organiser enables a challenge whose opening has passed, and not again', async () => {
    await setSwitch(true)
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    await admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag: 'f{x}' }])
    await edit(game.id, c.id, { openAt: t.clock.now() - 1000 })
    await edit(game.id, c.id, { isEnabled: true })
    expect(await newChallengeNotices(game.id)).toHaveLength(1)
    await t.app.deps.services.release.releaseDue()
    expect(await newChallengeNotices(game.id)).toHaveLength(1)
  })

  it('is not posted for an opening before the game starts, nor while the switch is off', async () => {
    await setSwitch(true)
    const early = await createGame(admin, { start: t.clock.now() + HOUR, end: t.clock.now() + 5 * HOUR })
    const c = await staticChallenge(admin, early.id, 'flag{e}', { openAt: t.clock.now() + 1000 })
    await setSwitch(false)
    const running = await createGame(admin)
    // Switched off, enabling shows it at once and announces it then, as GZCTF does.
    await staticChallenge(admin, running.id, 'flag{r}', { openAt: t.clock.now() + 1000 })
    expect(await newChallengeNotices(running.id)).toHaveLength(1)
    await t.app.deps.services.release.releaseDue(new Date(t.clock.now() + 2000))
    // Both openings were passed once: turning the switch on later does not announce them.
    await setSwitch(true)
    await t.app.deps.services.release.releaseDue(new Date(t.clock.now() + 2000))
    expect(await newChallengeNotices(early.id)).toEqual([])
    expect(await newChallengeNotices(running.id)).toHaveLength(1)
    expect((await admin.get(`/api/edit/games/${early.id}/challenges/${c.id}`)).statusCode).toBe(200)
  })
})

/** A second server on the same database, as in a scaled-out deployment (and on the same clock). */
async function secondServer(databaseUrl: string, clock: Clock) {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
  })
  const database = await openDatabase({ url: databaseUrl, dataDir: null })
  const infra = await createInfra(config)
  const app = await buildApp({ config, database, infra, logger: false, clock })
  await app.ready()
  return {
    app,
    async close() {
      await app.close()
      await closeInfra(infra)
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('two servers on one database', () => {
  it('both show the challenge at openAt, and its notice is posted exactly once between them', async () => {
    await setSwitch(true)
    const other = await secondServer(t.databaseUrl!, t.clock)
    try {
      expect(other.app.deps.services.settings.isOn('scheduledRelease')).toBe(true)
      const game = await createGame(admin)
      const visible = await staticChallenge(admin, game.id, 'flag{v}')
      const player = await acceptedPlayer(t.app, admin, game.id)
      // The same session, sent to the other server.
      const there = new Agent(other.app)
      for (const [k, v] of player.agent.cookies) there.cookies.set(k, v)
      // An hour ahead: however slow the set-up, it opens only when the clock is moved.
      const openAt = t.clock.now() + HOUR
      const titles: string[] = []
      const many = []
      for (let i = 0; i < 5; i++) {
        const c = await staticChallenge(admin, game.id, `flag{m${i}}`, { openAt })
        titles.push(c.title)
        many.push(c.id)
      }
      expect(await listed(player, game.id, there)).toEqual([visible.id])
      expect(await listed(player, game.id)).toEqual([visible.id])

      t.clock.advance(openAt - t.clock.now() + 10)
      // Both servers' jobs fire at the same moment, several times over.
      const runs = await Promise.all(
        Array.from({ length: 6 }, (_, i) => (i % 2 ? other.app : t.app).deps.services.release.releaseDue()),
      )
      expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5)
      const notices = (await newChallengeNotices(game.id)).map((n) => n.values[0])
      // The one of the challenge enabled without a schedule, then one per opening.
      expect(notices.sort()).toEqual([visible.title, ...titles].sort())
      const all = sorted([visible.id, ...many])
      expect(sorted(await listed(player, game.id, there))).toEqual(all)
      expect(sorted(await listed(player, game.id))).toEqual(all)
      expect(sorted(await onBoard(game.id, new Agent(other.app)))).toEqual(all)
    } finally {
      await other.close()
    }
  })
})
