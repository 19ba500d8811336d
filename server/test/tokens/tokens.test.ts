import { eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { apiTokens, logs, users } from '../../src/db/schema.ts'
import { adminAgent, createGame, registeredUser, setRole } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

/** A tool outside the browser: no cookies, only the bearer token (and a JSON body when given). */
const tool = (
  token: string,
  url: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'GET',
  body?: unknown,
) =>
  new Agent(t.app).request({
    method,
    url,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
  })

async function newToken(body: Record<string, unknown> = { name: 'scoreboard bot' }) {
  const res = await admin.post('/api/tokens', body)
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { token: string; info: { id: string; name: string } & Record<string, unknown> }
}

describe('API tokens (/api/tokens)', () => {
  it('creates a token shown once, lists it with its creator, and keeps only its hash', async () => {
    const { token, info } = await newToken({ name: 'bot', expiresIn: 7 })
    expect(info).toMatchObject({ name: 'bot', creator: 'Admin', isRevoked: false, lastUsedAt: null })
    expect((info.expiresAt as number) - (info.createdAt as number)).toBe(7 * 86_400_000)
    const list = (await admin.get('/api/tokens')).json()
    expect(list.find((x: { id: string }) => x.id === info.id)).toEqual(info)
    expect(JSON.stringify(list)).not.toContain(token)
    const [row] = await t.app.deps.db.select().from(apiTokens).where(eq(apiTokens.id, info.id))
    expect(Object.values(row!).map(String)).not.toContain(token)
  })

  it('lets a token read the monitor routes and use the edit API, and nothing else', async () => {
    const game = await createGame(admin)
    const { token, info } = await newToken()
    for (const route of ['events', 'submissions', 'cheatinfo', 'submissionsheet']) {
      const res = await tool(token, `/api/game/${game.id}/${route}`)
      expect(res.statusCode, route).toBe(200)
    }
    const used = (await admin.get('/api/tokens')).json().find((x: { id: string }) => x.id === info.id)
    expect(used.lastUsedAt).toBeGreaterThan(0)
    for (const [method, url] of [
      ['GET', '/api/account/profile'],
      ['GET', '/api/tokens'],
      ['GET', '/api/admin/instances'],
      ['GET', `/api/game/${game.id}/participations`],
      ['GET', '/api/admin/users'],
      ['DELETE', `/api/assets/${'0'.repeat(64)}`],
      ['POST', '/api/team'],
    ] as const) {
      expect((await tool(token, url, method)).statusCode, `${method} ${url}`).toBe(401)
    }
    // Hidden games stay hidden, as for monitors.
    const hidden = await createGame(admin, { hidden: true })
    expect((await tool(token, `/api/game/${hidden.id}/events`)).statusCode).toBe(404)
  })

  it('refuses revoked, deleted, expired, forged and malformed tokens; restores revoked ones', async () => {
    const game = await createGame(admin)
    const events = `/api/game/${game.id}/events`
    const { token, info } = await newToken({ name: 'logged bot' })
    expect((await admin.delete(`/api/tokens/${info.id}`)).statusCode).toBe(200)
    expect((await tool(token, events)).statusCode).toBe(401)
    expect((await admin.post(`/api/tokens/${info.id}/restore`)).statusCode).toBe(200)
    expect((await tool(token, events)).statusCode).toBe(200)

    const expiring = await newToken({ name: 'short', expiresIn: 1 })
    await t.app.deps.db
      .update(apiTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(apiTokens.id, expiring.info.id))
    expect((await tool(expiring.token, events)).statusCode).toBe(401)

    const [body, signature] = token.split('.')
    for (const bad of [
      // One signature character changed (never to itself: a fixed suffix matched 1 run in 256).
      `${body}.${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`,
      `${body}x.${signature}`,
      'nonsense',
      '',
      'a.b.c',
    ]) {
      expect((await tool(bad, events)).statusCode, bad).toBe(401)
    }
    expect((await admin.delete(`/api/tokens/${info.id}?delete=true`)).statusCode).toBe(200)
    expect((await tool(token, events)).statusCode).toBe(401)
    expect((await admin.get('/api/tokens')).json().some((x: { id: string }) => x.id === info.id)).toBe(false)
    // Each change of a token is in the admin log.
    await t.app.deps.services.audit.flush()
    const trail = await t.app.deps.db
      .select()
      .from(logs)
      .where(like(logs.message, '% the API token "logged bot"'))
      .orderBy(logs.id)
    expect(trail.map((r) => r.message)).toEqual([
      'Admin created the API token "logged bot"',
      'Admin revoked the API token "logged bot"',
      'Admin restored the API token "logged bot"',
      'Admin deleted the API token "logged bot"',
    ])
  })

  it("acts with its creator's rights now: demoting, banning or deleting the creator stops it", async () => {
    const game = await createGame(admin)
    const events = `/api/game/${game.id}/events`
    for (const change of ['demote', 'ban', 'delete'] as const) {
      const creator = await registeredUser(t.app)
      await setRole(t.app, creator.userName, 3)
      const made = await creator.agent.post('/api/tokens', { name: `by ${change}` })
      expect(made.statusCode, made.body).toBe(200)
      const { token } = made.json() as { token: string }
      expect((await tool(token, events)).statusCode).toBe(200)
      const [row] = await t.app.deps.db
        .select({ id: users.id })
        .from(users)
        .where(eq(users.normalizedUserName, creator.userName.toLowerCase()))
      if (change === 'delete') {
        expect((await admin.delete(`/api/admin/users/${row!.id}`)).statusCode).toBe(200)
      } else {
        // Through the admin API, as an admin would: the change reaches every server.
        const res = await admin.put(`/api/admin/users/${row!.id}`, {
          role: change === 'demote' ? 'User' : 'Banned',
        })
        expect(res.statusCode, res.body).toBe(200)
      }
      for (const route of ['events', 'submissions', 'cheatinfo', 'submissionsheet']) {
        expect((await tool(token, `/api/game/${game.id}/${route}`)).statusCode, `${change} ${route}`).toBe(
          401,
        )
      }
    }
    // A creator demoted to Monitor keeps what a monitor may read.
    const creator = await registeredUser(t.app)
    await setRole(t.app, creator.userName, 3)
    const { token } = (await creator.agent.post('/api/tokens', { name: 'kept' })).json() as { token: string }
    await setRole(t.app, creator.userName, 2)
    expect((await tool(token, events)).statusCode).toBe(200)
  })

  it("edits games with an admin's token: no cookie, so no XSRF echo needed", async () => {
    const game = await createGame(admin)
    const { token } = await newToken({ name: 'pennant sync' })
    const base = `/api/edit/games/${game.id}/challenges`
    const created = await tool(token, base, 'POST', {
      title: 'By token',
      category: 'Web',
      type: 'StaticAttachment',
    })
    expect(created.statusCode, created.body).toBe(200)
    const id = created.json().id as number
    expect((await tool(token, `${base}/${id}/flags`, 'POST', [{ flag: 'flag{t}' }])).statusCode).toBe(200)
    const put = await tool(token, `${base}/${id}`, 'PUT', { content: 'written by a token', isEnabled: true })
    expect(put.statusCode, put.body).toBe(200)
    // The handout upload takes a token too.
    const form = new FormData()
    form.append('files', new Blob(['hello']), 'hello.txt')
    const req = new Request('http://x/api/assets', { method: 'POST', body: form })
    const upload = await new Agent(t.app).request({
      method: 'POST',
      url: '/api/assets',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': req.headers.get('content-type')!,
      },
      payload: Buffer.from(await req.arrayBuffer()),
    })
    expect(upload.statusCode, upload.body).toBe(200)
    expect(upload.json()[0].name).toBe('hello.txt')
    // What the admin's session sees is what the token wrote.
    const seen = (await admin.get(`${base}/${id}`)).json()
    expect(seen).toMatchObject({ title: 'By token', content: 'written by a token', isEnabled: true })
  })

  it("refuses the edit API to a monitor's token (403) and to a demoted creator's (401)", async () => {
    const game = await createGame(admin)
    const creator = await registeredUser(t.app)
    await setRole(t.app, creator.userName, 3)
    const { token } = (await creator.agent.post('/api/tokens', { name: 'demoted' })).json() as {
      token: string
    }
    const body = { title: 'x', category: 'Web', type: 'StaticAttachment' }
    const base = `/api/edit/games/${game.id}/challenges`
    expect((await tool(token, base, 'POST', body)).statusCode).toBe(200)
    await setRole(t.app, creator.userName, 2)
    // A monitor's token still reads the monitor routes, but edits nothing.
    expect((await tool(token, `/api/game/${game.id}/events`)).statusCode).toBe(200)
    expect((await tool(token, base)).statusCode).toBe(403)
    expect((await tool(token, base, 'POST', body)).statusCode).toBe(403)
    await setRole(t.app, creator.userName, 1)
    expect((await tool(token, base, 'POST', body)).statusCode).toBe(401)
    expect((await tool('nonsense', base, 'POST', body)).statusCode).toBe(401)
    expect((await tool('', base)).statusCode).toBe(401)
    expect((await admin.get(base)).json().filter((c: { title: string }) => c.title === 'x')).toHaveLength(1)
  })

  it('still wants the XSRF echo from a request that carries a session cookie, token or not', async () => {
    const game = await createGame(admin)
    const { token } = await newToken({ name: 'with cookie' })
    const browser = await adminAgent(t.app)
    browser.xsrf = false
    const res = await browser.request({
      method: 'POST',
      url: `/api/edit/games/${game.id}/challenges`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ title: 'x', category: 'Web', type: 'StaticAttachment' }),
    })
    expect(res.statusCode, res.body).toBe(403)
    expect(res.json().status).toBe(403)
    expect((await admin.get(`/api/edit/games/${game.id}/challenges`)).json()).toEqual([])
  })

  it('is for admins only, and validates its input', async () => {
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    expect((await monitor.agent.post('/api/tokens', { name: 'x' })).statusCode).toBe(403)
    expect((await monitor.agent.get('/api/tokens')).statusCode).toBe(403)
    expect((await new Agent(t.app).get('/api/tokens')).statusCode).toBe(401)
    for (const body of [
      {},
      { name: '' },
      { name: '  ' },
      { name: 'x'.repeat(129) },
      { name: 'x', expiresIn: -1 },
    ]) {
      const res = await admin.post('/api/tokens', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().status).toBe(400)
    }
    const missing = '00000000-0000-4000-8000-000000000000'
    expect((await admin.post(`/api/tokens/${missing}/restore`)).statusCode).toBe(404)
    expect((await admin.delete(`/api/tokens/${missing}`)).statusCode).toBe(404)
    expect((await admin.delete('/api/tokens/not-a-guid')).statusCode).toBe(400)
  })
})
