import { eq } from 'drizzle-orm'
import { expect } from 'vitest'
import type { App } from '../src/app.ts'
import { teamMembers, teams, users } from '../src/db/schema.ts'
import { Agent } from './helpers/agent.ts'

let seq = 0
/** A user name unique within the run (3 to 15 characters). */
export const uniqueName = (prefix = 'u') =>
  `${prefix}${Date.now().toString(36).slice(-5)}${(seq++).toString(36)}`.slice(0, 15)

export const PASSWORD = 'Passw0rd!'

export interface TestUser {
  agent: Agent
  userName: string
  email: string
  password: string
}

/** Registers a user through the API (default policy: active at once) and returns a signed-in agent. */
export async function registeredUser(
  app: App,
  overrides: Partial<Omit<TestUser, 'agent'>> = {},
): Promise<TestUser> {
  const agent = new Agent(app)
  const userName = overrides.userName ?? uniqueName()
  const email = overrides.email ?? `${userName.toLowerCase()}@example.com`
  const password = overrides.password ?? PASSWORD
  const res = await agent.post('/api/account/register', { userName, email, password })
  if (res.statusCode !== 200) throw new Error(`register failed: ${res.body}`)
  return { agent, userName, email, password }
}

/** Gives a user a role directly (the admin API arrives with its own issue). */
export async function setRole(app: App, userName: string, role: 0 | 1 | 2 | 3) {
  const [row] = await app.deps.db
    .update(users)
    .set({ role })
    .where(eq(users.normalizedUserName, userName.toLowerCase()))
    .returning()
  app.deps.services.sessions.forgetUser(row!.id)
}

export const ADMIN_PASSWORD = 'Adm1nPassword'

/**
 * An agent signed in as the bootstrap Admin (created on first use, as at start-up). The session
 * is opened directly, so this works whatever captcha the test has switched on.
 */
export async function adminAgent(app: App): Promise<Agent> {
  await app.deps.services.account.ensureAdmin(ADMIN_PASSWORD, () => ADMIN_PASSWORD)
  const [admin] = await app.deps.db.select().from(users).where(eq(users.normalizedUserName, 'admin'))
  const { token } = await app.deps.services.sessions.create(admin!.id)
  const agent = new Agent(app)
  agent.cookies.set('pennant_token', token)
  await agent.get('/api/account/profile') // picks up the XSRF cookie, as a page load would
  return agent
}

/** Replaces the account policy through the admin API (fields left out take their defaults). */
export async function setAccountPolicy(app: App, policy: Record<string, unknown>) {
  const admin = await adminAgent(app)
  const res = await admin.put('/api/admin/config', { accountPolicy: policy })
  if (res.statusCode !== 200) throw new Error(`policy update failed: ${res.body}`)
}

const HOUR = 3600_000

/** Creates a game through the edit API; running now by default. */
export async function createGame(admin: Agent, overrides: Record<string, unknown> = {}) {
  const res = await admin.post('/api/edit/games', {
    title: `Game ${uniqueName('g')}`,
    start: Date.now() - HOUR,
    end: Date.now() + 24 * HOUR,
    ...overrides,
  })
  if (res.statusCode !== 200) throw new Error(`create game failed: ${res.body}`)
  return res.json() as { id: number; title: string; publicKey: string } & Record<string, unknown>
}

/** Creates a challenge through the edit API and returns its edit detail. */
export async function createChallenge(admin: Agent, gameId: number, body: Record<string, unknown> = {}) {
  const res = await admin.post(`/api/edit/games/${gameId}/challenges`, {
    title: `Chal ${uniqueName('c')}`,
    ...body,
  })
  if (res.statusCode !== 200) throw new Error(`create challenge failed: ${res.body}`)
  return res.json() as { id: number; title: string } & Record<string, unknown>
}

/** A team captained by the given user, inserted directly (for tests of other areas). */
export async function teamOf(app: App, captain: TestUser, name = `T${uniqueName('t')}`.slice(0, 20)) {
  const me = (await captain.agent.get('/api/account/profile')).json()
  const [team] = await app.deps.db
    .insert(teams)
    .values({ name, inviteToken: 'f'.repeat(32), captainId: me.userId })
    .returning()
  await app.deps.db.insert(teamMembers).values({ teamId: team!.id, userId: me.userId })
  return team!
}

/** Waits until `check` passes (for work that completes in the background, like judging). */
export async function eventually<T>(check: () => Promise<T>, timeoutMs = 5000): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    try {
      return await check()
    } catch (err) {
      if (Date.now() > deadline) throw err
      // real wait: polling between checks
      await new Promise((r) => setTimeout(r, 50))
    }
  }
}

/** A player whose team joined the game and was accepted by the admin. */
export async function acceptedPlayer(
  app: App,
  admin: Agent,
  gameId: number,
): Promise<TestUser & { teamId: number }> {
  const user = await registeredUser(app)
  const team = await teamOf(app, user)
  const joined = await user.agent.post(`/api/game/${gameId}`, { teamId: team.id })
  if (joined.statusCode !== 200) throw new Error(`join failed: ${joined.body}`)
  const list = (await admin.get(`/api/game/${gameId}/participations`)).json() as {
    id: number
    team: { id: number }
  }[]
  const p = list.find((x) => x.team.id === team.id)!
  await admin.put(`/api/admin/participation/${p.id}`, { status: 'Accepted' })
  return { ...user, teamId: team.id }
}

/** An enabled static challenge with one flag. */
export async function staticChallenge(
  admin: Agent,
  gameId: number,
  flag = 'flag{static}',
  extra: Record<string, unknown> = {},
) {
  const c = await createChallenge(admin, gameId, { category: 'Web' })
  await admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag }])
  await admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, { isEnabled: true, ...extra })
  return c
}

type Route = readonly ['GET' | 'POST' | 'PUT' | 'DELETE', string]

/**
 * Checks routes are for admins only: anonymous 401, user and monitor 403, each in the error shape;
 * an admin's API token 401 outside the edit API, the one admin token scope (tokenScope in http/auth.ts).
 */
export async function expectAdminOnly(app: App, admin: Agent, routes: readonly Route[]) {
  const user = await registeredUser(app)
  const monitor = await registeredUser(app)
  await setRole(app, monitor.userName, 2)
  const token = (await admin.post('/api/tokens', { name: `matrix ${uniqueName()}` })).json().token as string
  for (const [method, url] of routes) {
    const what = `${method} ${url}`
    const anonymous = await new Agent(app).request({ method, url })
    expect(anonymous.statusCode, what).toBe(401)
    expect(anonymous.json(), what).toEqual({ title: expect.any(String), status: 401 })
    expect((await user.agent.request({ method, url })).statusCode, what).toBe(403)
    expect((await monitor.agent.request({ method, url })).statusCode, what).toBe(403)
    const bearer = await new Agent(app).request({
      method,
      url,
      headers: { authorization: `Bearer ${token}` },
    })
    // The edit API is in the admin tokens' scope (challenges as code): there the admin's token acts.
    if (url.startsWith('/api/edit/')) expect(bearer.statusCode, what).not.toBe(401)
    else expect(bearer.statusCode, what).toBe(401)
  }
  return { user, monitor }
}
