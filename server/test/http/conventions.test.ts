import { and, eq, like } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { logs } from '../../src/db/schema.ts'
import { ADMIN_PASSWORD, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('error shape', () => {
  it('answers an unknown /api path with a JSON 404, never the web page', async () => {
    const res = await new Agent(t.app).get('/api/no/such/thing')
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-type']).toMatch(/^application\/json/)
    expect(res.json()).toEqual({ title: 'There is no such API route', status: 404 })
  })

  it('answers a wrong method with 405 and the allowed methods', async () => {
    const res = await new Agent(t.app).request({ method: 'DELETE', url: '/api/account/login' })
    expect(res.statusCode).toBe(405)
    expect(res.headers.allow).toBe('POST')
    expect(res.json()).toEqual({ title: 'This method is not allowed on this route', status: 405 })
  })

  it('matches paths without regard to case', async () => {
    expect((await new Agent(t.app).get('/API/Config')).statusCode).toBe(200)
  })

  it('refuses invalid JSON, an empty JSON body and a wrong content type with 400/415', async () => {
    const agent = new Agent(t.app)
    const bad = await agent.request({
      method: 'POST',
      url: '/api/account/login',
      payload: '{"userName":',
      headers: { 'content-type': 'application/json' },
    })
    expect(bad.json()).toEqual({ title: 'The body is not valid JSON', status: 400 })
    const empty = await agent.request({
      method: 'POST',
      url: '/api/account/login',
      payload: '',
      headers: { 'content-type': 'application/json' },
    })
    expect(empty.statusCode).toBe(400)
    const xml = await agent.request({
      method: 'POST',
      url: '/api/account/login',
      payload: '<a/>',
      headers: { 'content-type': 'application/xml' },
    })
    expect(xml.statusCode).toBe(415)
    expect(xml.json().status).toBe(415)
  })

  it('takes a JSON content type with no body as no body: fine where none is needed, 400 where one is', async () => {
    const { agent } = await registeredUser(t.app)
    const empty = { payload: '', headers: { 'content-type': 'application/json' } }
    expect((await agent.request({ method: 'POST', url: '/api/account/logout', ...empty })).statusCode).toBe(
      200,
    )
    const login = await agent.request({ method: 'POST', url: '/api/account/login', ...empty })
    expect(login.statusCode).toBe(400)
    expect(login.json().status).toBe(400)
  })

  it('refuses text with a NUL character (which PostgreSQL cannot store) with 400', async () => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.put('/api/account/update', { bio: 'a\u0000b' })
    expect(res.json()).toEqual({
      title: 'bio must not contain NUL characters or unpaired UTF-16 surrogates',
      status: 400,
    })
  })

  it('refuses JSON nested thousands of levels deep with 400 on any JSON route', async () => {
    const { agent } = await registeredUser(t.app)
    const deep = `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`
    for (const url of ['/api/account/update', '/api/account/login']) {
      const res = await agent.request({
        method: url.endsWith('update') ? 'PUT' : 'POST',
        url,
        payload: `{"bio":${deep},"userName":${deep}}`,
        headers: { 'content-type': 'application/json' },
      })
      expect(res.statusCode, url).toBe(400)
      expect(res.json().title).toMatch(/nested too deeply/)
    }
    const arrays = await agent.request({
      method: 'PUT',
      url: '/api/account/update',
      payload: `${'['.repeat(20000)}${']'.repeat(20000)}`,
      headers: { 'content-type': 'application/json' },
    })
    expect(arrays.statusCode).toBe(400)
  })

  it('answers an over-long path segment with 414 and a malformed URL with 400, in the error shape', async () => {
    const long = await new Agent(t.app).get(`/api/posts/${'x'.repeat(300)}`)
    expect(long.json()).toEqual({ title: 'A path segment is too long', status: 414 })
    const broken = await new Agent(t.app).get('/api/posts/%E0%A4%A')
    expect(broken.statusCode).toBe(400)
    expect(broken.json().status).toBe(400)
  })

  it('refuses a broken multipart upload with 400', async () => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.request({
      method: 'PUT',
      url: '/api/account/avatar',
      payload: '--x\r\nbroken',
      headers: { 'content-type': 'multipart/form-data; boundary=x' },
    })
    expect(res.json()).toEqual({ title: 'The uploaded form is malformed', status: 400 })
  })

  it('refuses a body over 1 MiB with 413', async () => {
    const res = await new Agent(t.app).post('/api/account/login', {
      userName: 'x'.repeat(1_100_000),
      password: 'y',
    })
    expect(res.statusCode).toBe(413)
    expect(res.json()).toEqual({ title: 'The request body is too large', status: 413 })
  })

  it('turns an unexpected fault into a logged 500 that leaks nothing', async () => {
    const { agent, userName } = await registeredUser(t.app)
    const original = t.app.deps.services.account.profile
    t.app.deps.services.account.profile = async () => {
      throw new Error('secret internal detail')
    }
    try {
      const res = await agent.get('/api/account/profile')
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({
        title: 'Something went wrong on our side; the error has been logged',
        status: 500,
      })
      // ...logged where an admin reads it, with who and where.
      await t.app.deps.services.audit.flush()
      const [row] = await t.app.deps.db
        .select()
        .from(logs)
        .where(and(eq(logs.level, 'Error'), like(logs.message, '%secret internal detail%')))
      expect(row).toMatchObject({ logger: 'http', status: 'Failed', remoteIp: agent.ip, userName })
      expect(row!.message).toBe('GET /api/account/profile failed: secret internal detail')
    } finally {
      t.app.deps.services.account.profile = original
    }
  })
})

describe('service endpoints', () => {
  it('reports health', async () => {
    const res = await new Agent(t.app).get('/healthz')
    expect(res.json()).toEqual({ status: 'Healthy' })
  })

  it('publishes an OpenAPI document covering every account and info route', async () => {
    const doc = (await new Agent(t.app).get('/openapi/v1.json')).json()
    expect(doc.openapi).toMatch(/^3\./)
    const ops = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
    )
    for (const op of [
      'POST /api/account/register',
      'POST /api/account/recovery',
      'POST /api/account/passwordreset',
      'POST /api/account/verify',
      'POST /api/account/login',
      'POST /api/account/logout',
      'PUT /api/account/update',
      'PUT /api/account/changepassword',
      'PUT /api/account/changeemail',
      'POST /api/account/mailchangeconfirm',
      'GET /api/account/profile',
      'PUT /api/account/avatar',
      'GET /api/config',
      'GET /api/captcha',
      'GET /api/captcha/powchallenge',
      'GET /api/posts',
      'GET /api/posts/latest',
      'GET /api/posts/{id}',
      'GET /assets/{hash}/{filename}',
    ]) {
      expect(ops).toContain(op)
    }
    const register = doc.paths['/api/account/register'].post
    expect(register.responses['200'].content['application/json'].schema.properties.data.enum).toEqual([
      'LoggedIn',
      'AdminConfirmationRequired',
      'EmailConfirmationRequired',
    ])
  })

  it('declares in the OpenAPI document the 4xx the gate sends: 429 everywhere, 401/403 where signed in', async () => {
    const doc = (await new Agent(t.app).get('/openapi/v1.json')).json()
    const responses = (path: string, method: string) => Object.keys(doc.paths[path][method].responses)
    // Login is counted by the global limit and throttled per account: both answer 429.
    expect(responses('/api/account/login', 'post')).toEqual(
      expect.arrayContaining(['200', '400', '401', '429']),
    )
    expect(responses('/api/account/register', 'post')).toContain('429')
    expect(responses('/api/game/{id}/challenges/{challengeId}', 'post')).toEqual(
      expect.arrayContaining(['400', '401', '403', '404', '429']),
    )
    expect(responses('/api/admin/users', 'get')).toEqual(expect.arrayContaining(['401', '403', '429']))
    for (const [path, methods] of Object.entries(
      doc.paths as Record<string, Record<string, { responses: object }>>,
    )) {
      for (const [method, op] of Object.entries(methods))
        if (path.startsWith('/api/')) expect(Object.keys(op.responses), `${method} ${path}`).toContain('429')
    }
  })
})

describe('bootstrap admin', () => {
  it('creates Admin with the configured password once, and never a second admin', async () => {
    const { account } = t.app.deps.services
    expect((await account.ensureAdmin(ADMIN_PASSWORD, () => 'unused'))?.password).toBe(ADMIN_PASSWORD)
    expect(await account.ensureAdmin('Other0ne', () => 'unused')).toBeNull()
    const agent = new Agent(t.app)
    expect(
      (await agent.post('/api/account/login', { userName: 'Admin', password: ADMIN_PASSWORD })).statusCode,
    ).toBe(200)
    expect((await agent.get('/api/account/profile')).json()).toMatchObject({
      role: 'Admin',
      passwordChangeRequired: false,
    })
  })

  it('asks an admin whose password was generated (and printed) to choose one', async () => {
    const other = await createTestApp()
    try {
      const created = await other.app.deps.services.account.ensureAdmin(undefined, () => 'Gener4tedPass')
      const password = created?.password
      expect(password).toBe('Gener4tedPass')
      const agent = new Agent(other.app)
      await agent.post('/api/account/login', { userName: 'Admin', password })
      expect((await agent.get('/api/account/profile')).json().passwordChangeRequired).toBe(true)
      await agent.put('/api/account/changepassword', { old: password, new: 'Ch0senByMe' })
      expect((await agent.get('/api/account/profile')).json().passwordChangeRequired).toBe(false)
    } finally {
      await other.close()
    }
  })
})
