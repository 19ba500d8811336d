import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { files, logs, participations, submissions } from '../../src/db/schema.ts'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  expectAdminOnly,
  registeredUser,
  staticChallenge,
  teamOf,
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

const teamById = async (id: number) =>
  (await admin.post(`/api/admin/teams/search?hint=${id}`)).json().data.find((x: TeamInfo) => x.id === id)

type TeamInfo = {
  id: number
  name: string
  bio: string | null
  locked: boolean
  members: { userName: string; captain: boolean }[]
}

describe('admin teams (/api/admin/teams)', () => {
  it('is for admins only', async () => {
    const team = await teamOf(t.app, await registeredUser(t.app))
    await expectAdminOnly(t.app, admin, [
      ['GET', '/api/admin/teams'],
      ['POST', '/api/admin/teams/search?hint=a'],
      ['PUT', `/api/admin/teams/${team.id}`],
      ['DELETE', `/api/admin/teams/${team.id}`],
    ])
    expect((await teamById(team.id)).id).toBe(team.id)
  })

  it('pages teams with members, and finds them by name or id', async () => {
    const captain = await registeredUser(t.app)
    const team = await teamOf(t.app, captain, `Pages ${Date.now() % 1e6}`)
    const page = (await admin.get('/api/admin/teams?count=500')).json()
    expect(page.total).toBeGreaterThanOrEqual(1)
    const ids = page.data.map((x: TeamInfo) => x.id)
    expect(ids).toEqual([...ids].sort((a: number, b: number) => a - b))
    const mine = page.data.find((x: TeamInfo) => x.id === team.id)
    expect(mine.members).toEqual([expect.objectContaining({ userName: captain.userName, captain: true })])
    expect((await admin.get('/api/admin/teams?count=1&skip=0')).json().length).toBe(1)

    for (const hint of [team.name.toLowerCase(), String(team.id)]) {
      const found = (await admin.post(`/api/admin/teams/search?hint=${encodeURIComponent(hint)}`)).json()
      expect(
        found.data.map((x: TeamInfo) => x.id),
        hint,
      ).toContain(team.id)
    }
    expect((await admin.post('/api/admin/teams/search')).statusCode).toBe(400)
    expect((await admin.get('/api/admin/teams?count=501')).statusCode).toBe(400)
  })

  it('renames, describes, locks and unlocks; empty values keep; a missing team is a 400', async () => {
    const team = await teamOf(t.app, await registeredUser(t.app))
    expect(
      (await admin.put(`/api/admin/teams/${team.id}`, { name: 'Renamed', bio: 'new bio', locked: true }))
        .statusCode,
    ).toBe(200)
    let shown = await teamById(team.id)
    expect(shown).toMatchObject({ name: 'Renamed', bio: 'new bio', locked: true })
    expect(
      (await admin.put(`/api/admin/teams/${team.id}`, { name: '  ', bio: '', locked: false })).statusCode,
    ).toBe(200)
    shown = await teamById(team.id)
    expect(shown).toMatchObject({ name: 'Renamed', bio: 'new bio', locked: false })

    expect((await admin.put('/api/admin/teams/999999999', { name: 'x' })).json()).toEqual({
      title: 'Team not found',
      status: 400,
    })
    for (const body of [{ name: 'x'.repeat(21) }, { bio: 'x'.repeat(73) }, { locked: 'yes' }, []]) {
      expect((await admin.put(`/api/admin/teams/${team.id}`, body)).statusCode, JSON.stringify(body)).toBe(
        400,
      )
    }
    expect((await admin.put('/api/admin/teams/abc', {})).statusCode).toBe(400)
  })

  it('deletes a team with its registrations and submissions; the members stay', async () => {
    const game = await createGame(admin)
    const chal = await staticChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const submitted = await player.agent.post(`/api/game/${game.id}/challenges/${chal.id}`, {
      flag: 'flag{static}',
    })
    expect(submitted.statusCode).toBe(200)
    const res = await admin.delete(`/api/admin/teams/${player.teamId}`)
    expect(res.statusCode).toBe(200)
    expect(
      await t.app.deps.db.select().from(participations).where(eq(participations.teamId, player.teamId)),
    ).toEqual([])
    expect(
      await t.app.deps.db.select().from(submissions).where(eq(submissions.teamId, player.teamId)),
    ).toEqual([])
    expect((await player.agent.get('/api/team')).json()).toEqual([])
    expect((await player.agent.get('/api/account/profile')).statusCode).toBe(200)
    const board = (await admin.get(`/api/game/${game.id}/scoreboard`)).json()
    expect(board.items.map((i: { id: number }) => i.id)).not.toContain(player.teamId)
    expect((await admin.delete(`/api/admin/teams/${player.teamId}`)).statusCode).toBe(404)
  })
})

describe('admin logs (/api/admin/logs)', () => {
  it('is for admins only', async () => {
    await expectAdminOnly(t.app, admin, [['GET', '/api/admin/logs']])
  })

  it('keeps sign-ins and admin actions, newest first, filtered by level and paged', async () => {
    const user = await registeredUser(t.app)
    await new Agent(t.app).post('/api/account/login', { userName: user.userName, password: 'Wr0ngPassword' })
    await new Agent(t.app).post('/api/account/login', { userName: user.userName, password: user.password })
    const found = await eventually(async () => {
      const list = (await admin.get('/api/admin/logs?count=1000')).json()
      const mine = list.filter((l: { name: string }) => l.name === user.userName)
      expect(mine.map((l: { msg: string }) => l.msg)).toEqual([
        `${user.userName} signed in`,
        `Wrong password for ${user.userName}`,
        `Registered ${user.userName}`,
      ])
      return mine
    })
    expect(found[0]).toMatchObject({ level: 'Information', status: 'Success', ip: expect.any(String) })
    expect(typeof found[0].time).toBe('number')
    expect(found[1]).toMatchObject({ level: 'Warning', status: 'Denied' })

    const warnings = (await admin.get('/api/admin/logs?level=Warning&count=1000')).json()
    expect(warnings.length).toBeGreaterThan(0)
    expect(warnings.every((l: { level: string }) => l.level === 'Warning')).toBe(true)
    const [first] = (await admin.get('/api/admin/logs?count=1&skip=0')).json()
    const [second] = (await admin.get('/api/admin/logs?count=1&skip=1')).json()
    expect(first.time).toBeGreaterThanOrEqual(second.time)
    expect((await admin.get('/api/admin/logs?count=0')).json()).toEqual([])
    for (const bad of ['level=Verbose', 'level=all%27--', 'count=1001', 'skip=-5']) {
      const res = await admin.get(`/api/admin/logs?${bad}`)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().status).toBe(400)
    }
  })

  it('keeps solves with their blood, but not wrong answers', async () => {
    const game = await createGame(admin)
    const chal = await staticChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const team = (await player.agent.get('/api/team')).json()[0].name as string
    await player.agent.post(`/api/game/${game.id}/challenges/${chal.id}`, { flag: 'flag{nope}' })
    await player.agent.post(`/api/game/${game.id}/challenges/${chal.id}`, { flag: 'flag{static}' })
    const mine = await eventually(async () => {
      const list = (await admin.get('/api/admin/logs?count=1000')).json()
      const rows = list.filter((l: { msg: string }) => l.msg.startsWith(`${team} `))
      expect(rows).toHaveLength(1)
      return rows[0]
    })
    expect(mine).toMatchObject({
      msg: `${team} solved ${chal.title} (game ${game.id}, FirstBlood)`,
      name: player.userName,
      level: 'Information',
      status: 'Success',
    })
  })

  it('names anonymous records Anonymous, and forgets records past the retention', async () => {
    const { db, services } = t.app.deps
    const old = new Date(Date.now() - 40 * 86_400_000)
    await db.insert(logs).values({ timeUtc: old, level: 'Information', logger: 'test', message: 'ancient' })
    services.audit.write({ logger: 'test', message: 'anonymous now' })
    await services.audit.flush()
    const list = (await admin.get('/api/admin/logs?count=1000')).json()
    expect(list.find((l: { msg: string }) => l.msg === 'anonymous now')).toMatchObject({
      name: 'Anonymous',
      ip: null,
    })
    expect(list.some((l: { msg: string }) => l.msg === 'ancient')).toBe(true)
    await services.audit.trim(30)
    const after = (await admin.get('/api/admin/logs?count=1000')).json()
    expect(after.some((l: { msg: string }) => l.msg === 'ancient')).toBe(false)
    expect(after.some((l: { msg: string }) => l.msg === 'anonymous now')).toBe(true)
  })
})

describe('admin files (/api/admin/files)', () => {
  it('is for admins only', async () => {
    await expectAdminOnly(t.app, admin, [['GET', '/api/admin/files']])
  })

  it('lists stored files by name with hash, pages them, and counts all of them', async () => {
    const user = await registeredUser(t.app)
    // An avatar is a stored file.
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    )
    expect(
      (
        await user.agent.upload('PUT', '/api/account/avatar', {
          bytes: png,
          name: 'a.png',
          type: 'image/png',
        })
      ).statusCode,
    ).toBe(200)
    const all = (await admin.get('/api/admin/files?count=500')).json()
    const rows = await t.app.deps.db.select().from(files)
    expect(all.total).toBe(rows.length)
    expect(all.data.length).toBe(Math.min(500, rows.length))
    expect(all.data[0]).toEqual({ hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: expect.any(String) })
    const names = all.data.map((f: { name: string }) => f.name)
    expect(names).toEqual([...names].sort((a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)))
    expect((await admin.get('/api/admin/files?count=1&skip=0')).json().length).toBe(1)
    expect((await admin.get('/api/admin/files?count=501')).statusCode).toBe(400)
  })
})
