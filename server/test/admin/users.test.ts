import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs, submissions, teams } from '../../src/db/schema.ts'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  expectAdminOnly,
  PASSWORD,
  registeredUser,
  staticChallenge,
  uniqueName,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
let adminId: string
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
  adminId = (await admin.get('/api/account/profile')).json().userId
})
afterAll(() => t.close())

const idOf = async (agent: Agent) => (await agent.get('/api/account/profile')).json().userId as string
const login = (userName: string, password: string) =>
  new Agent(t.app).post('/api/account/login', { userName, password })

type UserInfo = { id: string; userName: string; role: string; email: string; emailConfirmed: boolean }

describe('admin users (/api/admin/users)', () => {
  it('keeps every route to admins: anonymous 401, user and monitor 403, token 401', async () => {
    const target = await registeredUser(t.app)
    const id = await idOf(target.agent)
    await expectAdminOnly(t.app, admin, [
      ['GET', '/api/admin/users'],
      ['POST', '/api/admin/users'],
      ['POST', '/api/admin/users/search?hint=a'],
      ['GET', `/api/admin/users/${id}`],
      ['PUT', `/api/admin/users/${id}`],
      ['DELETE', `/api/admin/users/${id}/password`],
      ['DELETE', `/api/admin/users/${id}`],
    ])
    // Nothing changed on the way.
    expect((await login(target.userName, PASSWORD)).statusCode).toBe(200)
  })

  it('pages users by id with the total, and finds them by any identifying field', async () => {
    const a = await registeredUser(t.app)
    const page = (await admin.get('/api/admin/users?count=2&skip=0')).json()
    expect(page.length).toBe(2)
    expect(page.total).toBeGreaterThanOrEqual(2)
    const all = (await admin.get('/api/admin/users?count=500')).json()
    expect(all.total).toBe(page.total)
    const ids = all.data.map((u: UserInfo) => u.id)
    expect(ids).toEqual([...ids].sort())
    const mine = all.data.find((u: UserInfo) => u.userName === a.userName)
    expect(mine).toMatchObject({ email: a.email, role: 'User', emailConfirmed: true, ip: expect.any(String) })
    expect(typeof mine.registerTimeUtc).toBe('number')

    await admin.put(`/api/admin/users/${mine.id}`, {
      realName: 'Ada Lovelace',
      stdNumber: 'S-77_1',
      phone: '+44 20 7946',
    })
    for (const hint of [
      a.userName.toUpperCase(),
      'lovelace',
      'S-77_1',
      '7946',
      mine.id.slice(4, 12),
      a.email,
    ]) {
      const found = (await admin.post(`/api/admin/users/search?hint=${encodeURIComponent(hint)}`)).json()
      expect(
        found.data.map((u: UserInfo) => u.id),
        hint,
      ).toContain(mine.id)
      expect(found.total).toBe(found.length)
    }
    // LIKE wildcards are literal: `%` matches only a real percent sign.
    expect((await admin.post('/api/admin/users/search?hint=%25')).json().data).toEqual([])
    expect(
      (await admin.post('/api/admin/users/search?hint=_')).json().data.map((u: UserInfo) => u.id),
    ).toContain(mine.id)
    for (const bad of ['', '?hint=', '?hint=%20%20']) {
      const res = await admin.post(`/api/admin/users/search${bad}`)
      expect(res.statusCode, bad).toBe(400)
      expect(res.json().status).toBe(400)
    }
    for (const bad of ['count=501', 'count=-1', 'skip=-1', 'count=x']) {
      expect((await admin.get(`/api/admin/users?${bad}`)).statusCode, bad).toBe(400)
    }
  })

  it('shows one user, and answers 404 for an unknown one and 400 for a malformed id', async () => {
    const a = await registeredUser(t.app)
    const id = await idOf(a.agent)
    expect((await admin.get(`/api/admin/users/${id}`)).json()).toMatchObject({
      userId: id,
      userName: a.userName,
      role: 'User',
    })
    const unknown = crypto.randomUUID()
    for (const [method, url] of [
      ['GET', `/api/admin/users/${unknown}`],
      ['PUT', `/api/admin/users/${unknown}`],
      ['DELETE', `/api/admin/users/${unknown}/password`],
      ['DELETE', `/api/admin/users/${unknown}`],
    ] as const) {
      const res = await admin.request({
        method,
        url,
        ...(method === 'PUT' ? { payload: {}, headers: { 'content-type': 'application/json' } } : {}),
      })
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.json()).toEqual({ title: 'User not found', status: 404 })
    }
    expect((await admin.get('/api/admin/users/not-a-guid')).statusCode).toBe(400)
  })

  it('edits a user: name, e-mail (unconfirmed unless told), details, role; refuses taken names and bad values', async () => {
    const a = await registeredUser(t.app)
    const b = await registeredUser(t.app)
    const id = await idOf(a.agent)
    const newName = uniqueName('n')
    const res = await admin.put(`/api/admin/users/${id}`, {
      userName: newName,
      email: `${newName}@example.org`,
      bio: 'edited',
      role: 'Monitor',
    })
    expect(res.statusCode, res.body).toBe(200)
    const after = (await admin.get(`/api/admin/users/${id}`)).json()
    expect(after).toMatchObject({
      userName: newName,
      email: `${newName}@example.org`,
      bio: 'edited',
      role: 'Monitor',
    })
    const listed = (await admin.post(`/api/admin/users/search?hint=${newName}`)).json().data[0]
    expect(listed.emailConfirmed).toBe(false)
    // The new role applies to the session the user already has.
    expect((await a.agent.get('/api/account/profile')).json().role).toBe('Monitor')

    await admin.put(`/api/admin/users/${id}`, { emailConfirmed: true, role: 1 })
    expect((await admin.post(`/api/admin/users/search?hint=${newName}`)).json().data[0]).toMatchObject({
      emailConfirmed: true,
      role: 'User',
    })

    expect((await admin.put(`/api/admin/users/${id}`, { userName: b.userName })).json()).toEqual({
      title: 'This user name is taken',
      status: 400,
    })
    expect((await admin.put(`/api/admin/users/${id}`, { email: b.email.toUpperCase() })).statusCode).toBe(400)
    for (const body of [
      { role: 'Root' },
      { role: 7 },
      { userName: 'ab' },
      { email: 'not-mail' },
      { phone: 'call me' },
      { bio: 'x'.repeat(129) },
      [],
      'text',
    ]) {
      const bad = await admin.put(`/api/admin/users/${id}`, body)
      expect(bad.statusCode, JSON.stringify(body)).toBe(400)
    }
    expect((await admin.get(`/api/admin/users/${id}`)).json()).toMatchObject({
      userName: newName,
      role: 'User',
    })
  })

  it('bans a user: their open session stops working at once and they cannot sign in', async () => {
    const a = await registeredUser(t.app)
    const id = await idOf(a.agent)
    expect((await a.agent.get('/api/team')).statusCode).toBe(200)
    expect((await admin.put(`/api/admin/users/${id}`, { role: 'Banned' })).statusCode).toBe(200)
    const after = await a.agent.get('/api/team')
    expect(after.statusCode).toBe(401)
    expect((await login(a.userName, PASSWORD)).json()).toEqual({
      title: 'This account is disabled',
      status: 401,
    })
    const log = await eventually(async () => {
      const rows = await t.app.deps.db
        .select()
        .from(logs)
        .where(eq(logs.message, `Admin made ${a.userName} Banned`))
      expect(rows).toHaveLength(1)
      return rows[0]!
    })
    expect(log).toMatchObject({ userName: 'Admin', status: 'Success', level: 'Information' })
    // Lifting the ban lets them back in.
    await admin.put(`/api/admin/users/${id}`, { role: 'User' })
    expect((await login(a.userName, PASSWORD)).statusCode).toBe(200)
  })

  it('never lets an admin change their own role or delete themselves', async () => {
    expect((await admin.put(`/api/admin/users/${adminId}`, { role: 'User' })).json()).toEqual({
      title: 'You cannot change your own role; ask another administrator',
      status: 400,
    })
    // Saving their own details with the same role is fine.
    expect((await admin.put(`/api/admin/users/${adminId}`, { role: 'Admin', bio: 'root' })).statusCode).toBe(
      200,
    )
    expect((await admin.delete(`/api/admin/users/${adminId}`)).json()).toEqual({
      title: 'You cannot delete your own account',
      status: 400,
    })
    expect((await admin.get('/api/account/profile')).json().role).toBe('Admin')
  })

  it('resets a password: a strong new one is returned, the old one and old sessions stop working', async () => {
    const a = await registeredUser(t.app)
    const id = await idOf(a.agent)
    const res = await admin.delete(`/api/admin/users/${id}/password`)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    const password = res.json() as string
    expect(password).toHaveLength(16)
    expect(password).toMatch(/\d/)
    expect(password).toMatch(/[a-z]/)
    expect(password).toMatch(/[A-Z]/)
    expect(password).toMatch(/[!@#$%^&*()\-_=+]/)
    expect((await a.agent.get('/api/team')).statusCode).toBe(401)
    expect((await login(a.userName, PASSWORD)).statusCode).toBe(401)
    const fresh = new Agent(t.app)
    expect((await fresh.post('/api/account/login', { userName: a.userName, password })).statusCode).toBe(200)
    // The admin has seen it: the user is asked to choose their own, until they do.
    expect((await fresh.get('/api/account/profile')).json().passwordChangeRequired).toBe(true)
    expect(
      (await fresh.put('/api/account/changepassword', { old: password, new: 'M1neAgain' })).statusCode,
    ).toBe(200)
    expect((await fresh.get('/api/account/profile')).json().passwordChangeRequired).toBe(false)
  })

  it('deletes a user who captains nothing; keeps their submissions; refuses captains', async () => {
    const game = await createGame(admin)
    const chal = await staticChallenge(admin, game.id)
    const captain = await acceptedPlayer(t.app, admin, game.id)
    const member = await registeredUser(t.app)
    const code = (await captain.agent.get(`/api/team/${captain.teamId}/invite`)).json()
    expect((await member.agent.post('/api/team/accept', code)).statusCode).toBe(200)
    await member.agent.post(`/api/game/${game.id}`, { teamId: captain.teamId })
    const submitted = await member.agent.post(`/api/game/${game.id}/challenges/${chal.id}`, {
      flag: 'flag{wrong}',
    })
    expect(submitted.statusCode, submitted.body).toBe(200)
    const memberId = await idOf(member.agent)
    const captainId = await idOf(captain.agent)

    expect((await admin.delete(`/api/admin/users/${captainId}`)).json()).toEqual({
      title: 'This user captains a team; hand the team to another member or delete the team first',
      status: 400,
    })
    const res = await admin.delete(`/api/admin/users/${memberId}`)
    expect(res.statusCode).toBe(200)
    expect(res.body).toBe('')
    expect((await admin.get(`/api/admin/users/${memberId}`)).statusCode).toBe(404)
    expect((await member.agent.get('/api/account/profile')).statusCode).toBe(401)
    const team = (await captain.agent.get('/api/team')).json()[0]
    expect(team.members.map((m: { id: string }) => m.id)).toEqual([captainId])
    const kept = await t.app.deps.db.select().from(submissions).where(eq(submissions.id, submitted.json()))
    expect(kept).toHaveLength(1)
    expect(kept[0]!.userId).toBeNull()
    expect((await admin.delete(`/api/admin/users/${memberId}`)).statusCode).toBe(404)
  })
})

describe('batch creation (POST /api/admin/users)', () => {
  const row = (name: string, extra: Record<string, unknown> = {}) => ({
    userName: name,
    password: 'Str0ngPass',
    email: `${name}@batch.example`,
    ...extra,
  })

  it('creates confirmed users and their teams; the first named member captains', async () => {
    const [red, blue] = [`Red ${uniqueName('r')}`.slice(0, 20), `Blue ${uniqueName('b')}`.slice(0, 20)]
    const names = Array.from({ length: 6 }, () => uniqueName('b'))
    const body = names.map((n, i) =>
      row(n, {
        teamName: i < 3 ? red : blue,
        realName: `Real ${i}`,
        stdNumber: `N${i}`,
        phone: '+1 555 0100',
      }),
    )
    body.push(row(uniqueName('solo')))
    const res = await admin.post('/api/admin/users', body)
    expect(res.statusCode, res.body).toBe(200)
    for (const n of names) {
      const r = await login(n, 'Str0ngPass')
      expect(r.statusCode, n).toBe(200)
    }
    const found = (await admin.post(`/api/admin/users/search?hint=${names[0]}`)).json().data[0]
    expect(found).toMatchObject({ emailConfirmed: true, role: 'User', realName: 'Real 0', stdNumber: 'N0' })
    for (const [team, members] of [
      [red, names.slice(0, 3)],
      [blue, names.slice(3)],
    ] as const) {
      const listed = (await admin.post(`/api/admin/teams/search?hint=${encodeURIComponent(team)}`)).json()
        .data
      expect(listed).toHaveLength(1)
      const captain = listed[0].members.find((m: { captain: boolean }) => m.captain)
      expect(captain.userName).toBe(members[0])
      expect(listed[0].members.map((m: { userName: string }) => m.userName).sort()).toEqual(
        [...members].sort(),
      )
    }
  })

  it('updates an account whose name or e-mail exists instead of failing, with the new password', async () => {
    const a = await registeredUser(t.app)
    const res = await admin.post('/api/admin/users', [
      { userName: a.userName, password: 'N3wPassword', email: a.email, realName: 'Updated' },
    ])
    expect(res.statusCode, res.body).toBe(200)
    expect((await login(a.userName, 'N3wPassword')).statusCode).toBe(200)
    expect((await a.agent.get('/api/account/profile')).statusCode).toBe(401)
    expect((await admin.post(`/api/admin/users/search?hint=${a.userName}`)).json().data[0].realName).toBe(
      'Updated',
    )
  })

  it('writes nothing when one row fails, and says which row and why', async () => {
    const taken = await registeredUser(t.app)
    const other = await registeredUser(t.app)
    const fresh = uniqueName('f')
    const teamName = `T ${uniqueName('x')}`.slice(0, 20)
    const cases: [unknown, number, string | RegExp][] = [
      [
        [row(fresh, { teamName }), row(uniqueName('w'), { password: 'weak' })],
        400,
        /^Row 2 \(.+\): The password needs/,
      ],
      // The name is one account's, the e-mail another's.
      [
        [row(fresh, { teamName }), row(taken.userName, { email: other.email })],
        400,
        /^Row 2 \(.+\): This e-mail address is already in use$/,
      ],
    ]
    for (const [body, status, title] of cases) {
      const res = await admin.post('/api/admin/users', body)
      expect(res.statusCode, res.body).toBe(status)
      expect(res.json().title).toMatch(title)
    }
    expect((await admin.post(`/api/admin/users/search?hint=${fresh}`)).json().data).toEqual([])
    expect(await t.app.deps.db.select().from(teams).where(eq(teams.name, teamName))).toEqual([])
    expect((await login(taken.userName, PASSWORD)).statusCode).toBe(200)
  })

  it('validates every row before anything runs', async () => {
    for (const body of [
      [],
      {},
      [row('ab')],
      [row(uniqueName(), { email: 'nope' })],
      [row(uniqueName(), { teamName: 'x'.repeat(21) })],
      [row(uniqueName(), { phone: 'abc' })],
      [{ userName: uniqueName(), email: 'a@b.c' }],
      Array.from({ length: 501 }, () => row(uniqueName())),
    ]) {
      const res = await admin.post('/api/admin/users', body)
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400)
      expect(res.json().status).toBe(400)
    }
  })
})
