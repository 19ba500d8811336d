import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, registeredUser, setRole } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

describe('POST /api/account/login', () => {
  it('signs in by user name and by e-mail and sets an HttpOnly, SameSite=Lax session cookie', async () => {
    const { userName, email } = await registeredUser(t.app)
    for (const id of [userName, email.toUpperCase()]) {
      const agent = new Agent(t.app)
      const res = await agent.post('/api/account/login', { userName: id, password: PASSWORD })
      expect(res.statusCode).toBe(200)
      expect(res.body).toBe('')
      const cookie = String(res.headers['set-cookie'])
        .split(/,(?=\s*\w+=)/)
        .find((c) => c.startsWith('pennant_token='))
      expect(cookie).toMatch(/HttpOnly/)
      expect(cookie).toMatch(/SameSite=Lax/)
      expect(cookie).not.toMatch(/Secure/)
      const expires = Date.parse(/Expires=([^;]+)/.exec(cookie!)![1]!)
      expect(expires - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000)
      const profile = await agent.get('/api/account/profile')
      expect(profile.json().userName).toBe(userName)
    }
  })

  it('marks the cookie Secure when the request came over HTTPS through a trusted proxy', async () => {
    const { userName } = await registeredUser(t.app)
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/account/login',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-proto': 'https', 'content-type': 'application/json' },
      payload: JSON.stringify({ userName, password: PASSWORD }),
    })
    expect(res.statusCode).toBe(200)
    expect(String(res.headers['set-cookie'])).toMatch(/pennant_token=[^;]+;.*Secure/)
  })

  it('refuses a wrong password and an unknown user with the same 401', async () => {
    const { userName } = await registeredUser(t.app)
    const agent = new Agent(t.app)
    const wrong = await agent.post('/api/account/login', { userName, password: 'Wrong0ne' })
    const unknown = await agent.post('/api/account/login', { userName: 'nobody-here', password: 'Wrong0ne' })
    expect(wrong.statusCode).toBe(401)
    expect(unknown.statusCode).toBe(401)
    expect(wrong.json()).toEqual({ title: 'Incorrect user name or password', status: 401 })
    expect(unknown.json()).toEqual(wrong.json())
    expect(agent.cookies.has('pennant_token')).toBe(false)
  })

  it('slows guessing: after 5 wrong passwords that address waits, and says so; others may still sign in', async () => {
    const { userName, password } = await registeredUser(t.app)
    const guesser = new Agent(t.app)
    for (let i = 0; i < 5; i++)
      expect(
        (await guesser.post('/api/account/login', { userName, password: `Wrong${i}x` })).statusCode,
      ).toBe(401)
    const locked = await guesser.post('/api/account/login', { userName, password })
    expect(locked.statusCode).toBe(429)
    expect(locked.headers['retry-after']).toBe('30')
    expect(locked.json()).toEqual({
      title: 'Too many wrong passwords for this account; try again in 30 s',
      status: 429,
    })
    expect((await new Agent(t.app).post('/api/account/login', { userName, password })).statusCode).toBe(200)
  })

  it('refuses a banned user with 401 and the disabled message', async () => {
    const { userName } = await registeredUser(t.app)
    await setRole(t.app, userName, 0)
    const res = await new Agent(t.app).post('/api/account/login', { userName, password: PASSWORD })
    expect(res.statusCode).toBe(401)
    expect(res.json().title).toBe('This account is disabled')
  })

  it.each([
    [{}, 'userName is required'],
    [{ userName: 'abc' }, 'password is required'],
    [{ userName: '   ', password: 'x' }, 'userName must not be blank'],
    [{ userName: 12, password: 'x' }, 'userName must be string'],
    [{ userName: null, password: 'x' }, 'userName must be string'],
    [{ userName: 'a'.repeat(300), password: 'x' }, 'userName must NOT have more than 256 characters'],
  ])('rejects %j with 400 naming the field', async (body, title) => {
    const res = await new Agent(t.app).post('/api/account/login', body)
    expect(res.statusCode).toBe(400)
    expect(res.json()).toEqual({ title, status: 400 })
  })
})

describe('POST /api/account/logout', () => {
  it('ends the session: the old cookie no longer works', async () => {
    const { agent } = await registeredUser(t.app)
    const token = agent.cookies.get('pennant_token')!
    expect((await agent.post('/api/account/logout')).statusCode).toBe(200)
    expect(agent.cookies.has('pennant_token')).toBe(false)
    const replay = new Agent(t.app)
    replay.cookies.set('pennant_token', token)
    expect((await replay.get('/api/account/profile')).statusCode).toBe(401)
  })

  it('sets and clears, with the session, a readable cookie that says only that there is one', async () => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.get('/api/config')
    expect(res.statusCode).toBe(200)
    expect(agent.cookies.get('pennant_signed_in')).toBe('1')
    const login = await new Agent(t.app).post('/api/account/login', {
      userName: (await agent.get('/api/account/profile')).json().userName,
      password: PASSWORD,
    })
    const hint = String(login.headers['set-cookie'])
      .split(/,(?=\s*\w+=)/)
      .find((c) => c.startsWith('pennant_signed_in='))
    expect(hint).toMatch(/^pennant_signed_in=1;/)
    expect(hint).not.toMatch(/HttpOnly/)
    expect(hint).toMatch(/Expires=/)
    expect((await agent.post('/api/account/logout')).statusCode).toBe(200)
    expect(agent.cookies.has('pennant_signed_in')).toBe(false)
    // A session the server no longer knows loses the hint with its cookie.
    const stale = new Agent(t.app)
    stale.cookies.set('pennant_token', 'gone')
    stale.cookies.set('pennant_signed_in', '1')
    await stale.get('/api/config')
    expect(stale.cookies.has('pennant_signed_in')).toBe(false)
    // A session from before the hint existed gets it with its next answer.
    const { agent: older } = await registeredUser(t.app)
    older.cookies.delete('pennant_signed_in')
    await older.get('/api/config')
    expect(older.cookies.get('pennant_signed_in')).toBe('1')
  })

  it('needs a session (401)', async () => {
    const res = await new Agent(t.app).post('/api/account/logout')
    expect(res.json()).toEqual({ title: 'Please log in first', status: 401 })
  })

  it('refuses a state change without the XSRF header (403) and keeps the session', async () => {
    const { agent } = await registeredUser(t.app)
    agent.xsrf = false
    const res = await agent.post('/api/account/logout')
    expect(res.statusCode).toBe(403)
    expect(res.json().title).toMatch(/XSRF/)
    const forged = await agent.request({
      method: 'POST',
      url: '/api/account/logout',
      headers: { 'x-xsrf-token': 'forged' },
    })
    expect(forged.statusCode).toBe(403)
    agent.xsrf = true
    expect((await agent.get('/api/account/profile')).statusCode).toBe(200)
  })
})

describe('GET /api/account/profile', () => {
  it('returns the caller with every contract field, nulls written', async () => {
    const { agent, userName, email } = await registeredUser(t.app)
    const res = await agent.get('/api/account/profile')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body).toEqual({
      userId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      userName,
      email,
      bio: '',
      phone: null,
      realName: '',
      stdNumber: '',
      avatar: null,
      role: 'User',
      // Pennant's addition: whether the platform chose the password (see conventions.test.ts).
      passwordChangeRequired: false,
    })
  })

  it('answers 401 anonymously and 403 to a banned user', async () => {
    expect((await new Agent(t.app).get('/api/account/profile')).statusCode).toBe(401)
    const { agent, userName } = await registeredUser(t.app)
    await setRole(t.app, userName, 0)
    const res = await agent.get('/api/account/profile')
    expect(res.statusCode).toBe(403)
    expect(res.json()).toEqual({ title: 'You are not allowed to do this', status: 403 })
  })
})
