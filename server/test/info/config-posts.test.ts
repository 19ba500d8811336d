import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { posts } from '../../src/db/schema.ts'
import { adminAgent, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
  // As at start-up: the administrator exists before the welcome post is written.
  await adminAgent(t.app)
  await t.app.deps.services.posts.ensureWelcome()
})
afterAll(() => t.close())

describe('GET /api/config', () => {
  it('gives the client configuration with its defaults and a revalidating ETag', async () => {
    const agent = new Agent(t.app)
    const res = await agent.get('/api/config')
    expect(res.json()).toEqual({
      title: 'Pennant',
      slogan: 'Hack for fun not for profit',
      footerInfo: null,
      customTheme: null,
      apiPublicKey: null,
      logoUrl: null,
      portMapping: 'Default',
      defaultLifetime: 120,
      extensionDuration: 120,
      renewalWindow: 10,
    })
    expect(res.headers['cache-control']).toBe('no-cache, must-revalidate')
    expect(res.headers.etag).toMatch(/^W\/"cfg-.+"$/)
    expect((await agent.get('/api/config', { 'if-none-match': String(res.headers.etag) })).statusCode).toBe(
      304,
    )
  })

  it('reflects the admin settings and changes its ETag when they change', async () => {
    const before = await new Agent(t.app).get('/api/config')
    const admin = await adminAgent(t.app)
    const saved = await admin.put('/api/admin/config', {
      globalConfig: { title: 'Spring CTF', customTheme: '#12ab34', footerInfo: '**hi**' },
      containerPolicy: { defaultLifetime: 60 },
    })
    expect(saved.statusCode).toBe(200)
    const after = await new Agent(t.app).get('/api/config', { 'if-none-match': String(before.headers.etag) })
    expect(after.statusCode).toBe(200)
    expect(after.json()).toMatchObject({
      title: 'Spring CTF',
      customTheme: '#12ab34',
      footerInfo: '**hi**',
      defaultLifetime: 60,
      extensionDuration: 120,
    })
    await admin.put('/api/admin/config', { globalConfig: {}, containerPolicy: {} })
  })
})

describe('GET/PUT /api/admin/config', () => {
  it('returns all three sections to an admin', async () => {
    const admin = await adminAgent(t.app)
    const res = await admin.get('/api/admin/config')
    expect(res.statusCode).toBe(200)
    expect(Object.keys(res.json()).sort()).toEqual(['accountPolicy', 'containerPolicy', 'globalConfig'])
    expect(res.json().accountPolicy).toEqual({
      allowRegister: true,
      activeOnRegister: true,
      useCaptcha: false,
      emailConfirmationRequired: false,
      emailDomainList: '',
    })
  })

  it('is refused to anonymous callers (401) and to users and monitors (403)', async () => {
    expect((await new Agent(t.app).get('/api/admin/config')).statusCode).toBe(401)
    const { agent } = await registeredUser(t.app)
    expect((await agent.get('/api/admin/config')).statusCode).toBe(403)
    expect(
      (await agent.put('/api/admin/config', { accountPolicy: { allowRegister: false } })).statusCode,
    ).toBe(403)
    expect(
      (
        await new Agent(t.app).post('/api/account/register', {
          userName: 'stillopen',
          email: 'so@example.com',
          password: 'Passw0rd',
        })
      ).statusCode,
    ).toBe(200)
  })

  it.each([
    [{ containerPolicy: { defaultLifetime: 0 } }, 'defaultLifetime must be >= 1'],
    [{ globalConfig: { customTheme: 'red' } }, /customTheme must match pattern/],
    [{ accountPolicy: { allowRegister: 'yes' } }, 'allowRegister must be boolean'],
  ])('rejects %j with 400 and changes nothing', async (body, title) => {
    const admin = await adminAgent(t.app)
    const before = (await admin.get('/api/admin/config')).json()
    const res = await admin.put('/api/admin/config', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toMatch(title)
    expect((await admin.get('/api/admin/config')).json()).toEqual(before)
  })
})

describe('posts', () => {
  it('seeds one welcome post, signed by the administrator, and serves it in both lists and by id', async () => {
    const latest = await new Agent(t.app).get('/api/posts/latest')
    expect(latest.statusCode).toBe(200)
    const [post] = latest.json()
    expect(post).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}$/),
      title: 'Welcome to Pennant',
      summary: expect.any(String),
      isPinned: false,
      tags: [],
      authorAvatar: null,
      authorName: 'Admin',
      time: expect.any(Number),
    })
    expect((await new Agent(t.app).get('/api/posts')).json()).toEqual([post])
    const detail = await new Agent(t.app).get(`/api/posts/${post.id}`)
    expect(detail.json()).toMatchObject({ ...post, content: expect.stringContaining('Admin') })
    expect(
      (await new Agent(t.app).get(`/api/posts/${post.id}`, { 'if-none-match': String(detail.headers.etag) }))
        .statusCode,
    ).toBe(304)
  })

  it('orders pinned posts first, then the most recently updated', async () => {
    const now = Date.now()
    await t.app.deps.db.insert(posts).values([
      { id: 'aaaa0001', title: 'old pinned', isPinned: true, updateTimeUtc: new Date(now - 86_400_000) },
      { id: 'aaaa0002', title: 'newest', isPinned: false, updateTimeUtc: new Date(now + 1000) },
    ])
    const titles = (await new Agent(t.app).get('/api/posts')).json().map((p: { title: string }) => p.title)
    expect(titles.slice(0, 2)).toEqual(['old pinned', 'newest'])
  })

  it('answers 404 for a missing post and 400 for a malformed id', async () => {
    expect((await new Agent(t.app).get('/api/posts/0badc0de')).json()).toEqual({
      title: 'Post not found',
      status: 404,
    })
    const bad = await new Agent(t.app).get('/api/posts/not-an-id!')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().status).toBe(400)
  })
})
