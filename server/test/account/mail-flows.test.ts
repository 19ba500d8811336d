import { readFileSync } from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { RUNTIME } from '../../src/paths.ts'
import { PASSWORD, registeredUser, setAccountPolicy, uniqueName } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { linkIn, startSmtp } from '../helpers/smtp.ts'

let t: TestApp
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp({ ...smtp.env, PUBLIC_HOSTS: 'ctf.example.org' })
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
beforeEach(() => setAccountPolicy(t.app, { emailConfirmationRequired: true }))

const b64 = (s: string) => Buffer.from(s).toString('base64')

describe('success titles follow the request culture, as error titles do', () => {
  const zh = JSON.parse(readFileSync(path.join(RUNTIME.locales, 'zh-CN.json'), 'utf8'))

  it('tells register, recovery and e-mail change in zh-CN', async () => {
    const name = uniqueName('zh')
    const registered = await new Agent(t.app).post('/api/account/register?culture=zh-CN', {
      userName: name,
      email: `${name}@example.com`,
      password: PASSWORD,
    })
    const keys: Record<string, string> = {
      LoggedIn: 'Account_RegisteredLoggedIn',
      AdminConfirmationRequired: 'Account_RegisteredAdminConfirmation',
      EmailConfirmationRequired: 'Account_RegisteredEmailConfirmation',
    }
    const { data, title, status } = registered.json()
    expect(status).toBe(200)
    expect(title).toBe(zh[keys[data]!])
    expect(title).toMatch(/^注册成功/)

    const user = await registeredUser(t.app)
    const recovery = await new Agent(t.app).request({
      method: 'POST',
      url: '/api/account/recovery',
      payload: JSON.stringify({ email: user.email }),
      headers: { 'content-type': 'application/json', 'accept-language': 'zh-CN,zh;q=0.9' },
    })
    expect(recovery.json()).toEqual({ title: zh.Account_RecoveryMailSent, status: 200 })
    expect(recovery.headers['content-language']).toBe('zh-CN')

    const changed = await user.agent.put('/api/account/changeemail?culture=zh-CN', {
      newMail: `${uniqueName('new')}@example.com`,
    })
    expect(changed.json()).toEqual({ title: zh.Account_EmailChangeMailSent, data: true, status: 200 })
  })
})

describe('password recovery (POST /api/account/recovery, /passwordreset)', () => {
  it('never builds a link from a host the request names, unless PUBLIC_HOSTS lists it', async () => {
    const user = await registeredUser(t.app)
    const recover = async (from: string | undefined, headers: Record<string, string>) => {
      const res = await new Agent(t.app, from).request({
        method: 'POST',
        url: '/api/account/recovery',
        payload: JSON.stringify({ email: user.email }),
        headers: { 'content-type': 'application/json', ...headers },
      })
      expect(res.statusCode, res.body).toBe(200)
      return (await smtp.mailTo(user.email)).text
    }
    // A forged Host, a forged X-Forwarded-Host, and a trusted proxy naming a host nobody listed:
    // without PUBLIC_URL the link goes to the address the server was started for.
    for (const [from, headers] of [
      [undefined, { host: 'evil.example' }],
      [undefined, { 'x-forwarded-host': 'evil.example' }],
      ['127.0.0.1', { 'x-forwarded-host': 'evil.example' }],
    ] as const) {
      const text = await recover(from, headers)
      expect(text).not.toContain('evil.example')
      expect(text).toContain('http://localhost:8080/account/reset?')
    }
    // A host PUBLIC_HOSTS lists, from the request or from a trusted proxy, is kept.
    expect(await recover(undefined, { host: 'CTF.example.org' })).toContain(
      '://ctf.example.org/account/reset?',
    )
    expect(await recover('127.0.0.1', { 'x-forwarded-host': 'ctf.example.org' })).toContain(
      '://ctf.example.org/account/reset?',
    )
  })

  it('mails a reset link; the new password works, the old one and other sessions do not', async () => {
    const user = await registeredUser(t.app)
    const res = await new Agent(t.app).post('/api/account/recovery', { email: user.email })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      title: 'A password-reset link has been sent to your e-mail address',
      status: 200,
    })

    const link = linkIn(await smtp.mailTo(user.email))
    expect(link.path).toBe('reset')
    const reset = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'N3wSecret',
      email: link.email,
      rToken: link.token,
    })
    expect(reset.statusCode).toBe(200)

    expect((await user.agent.get('/api/account/profile')).statusCode).toBe(401)
    const old = await new Agent(t.app).post('/api/account/login', {
      userName: user.userName,
      password: PASSWORD,
    })
    expect(old.statusCode).toBe(401)
    const fresh = await new Agent(t.app).post('/api/account/login', {
      userName: user.userName,
      password: 'N3wSecret',
    })
    expect(fresh.statusCode).toBe(200)

    const reused = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'An0therOne',
      email: link.email,
      rToken: link.token,
    })
    expect(reused.json()).toEqual({ title: 'The link is invalid or has expired', status: 400 })
  })

  it('keeps the token usable when the new password is too weak', async () => {
    const user = await registeredUser(t.app)
    await new Agent(t.app).post('/api/account/recovery', { email: user.email })
    const link = linkIn(await smtp.mailTo(user.email))
    const weak = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'weak',
      email: link.email,
      rToken: link.token,
    })
    expect(weak.json().title).toMatch(/password needs/)
    const ok = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'Str0nger',
      email: link.email,
      rToken: link.token,
    })
    expect(ok.statusCode).toBe(200)
  })

  it('refuses an expired token', async () => {
    const user = await registeredUser(t.app)
    await new Agent(t.app).post('/api/account/recovery', { email: user.email })
    const link = linkIn(await smtp.mailTo(user.email))
    const { userTokens } = await import('../../src/db/schema.ts')
    await t.app.deps.db.update(userTokens).set({ expiresAt: new Date(Date.now() - 1000) })
    const res = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'Str0nger',
      email: link.email,
      rToken: link.token,
    })
    expect(res.json()).toEqual({ title: 'The link is invalid or has expired', status: 400 })
  })

  it('refuses a token mailed to another account', async () => {
    const alice = await registeredUser(t.app)
    const bob = await registeredUser(t.app)
    await new Agent(t.app).post('/api/account/recovery', { email: alice.email })
    const link = linkIn(await smtp.mailTo(alice.email))
    const res = await new Agent(t.app).post('/api/account/passwordreset', {
      password: 'Hijack3d',
      email: b64(bob.email),
      rToken: link.token,
    })
    expect(res.statusCode).toBe(400)
    const bobLogin = await new Agent(t.app).post('/api/account/login', {
      userName: bob.userName,
      password: PASSWORD,
    })
    expect(bobLogin.statusCode).toBe(200)
  })

  it('answers 404 for an unknown address and 400 when self-service reset is off', async () => {
    const unknown = await new Agent(t.app).post('/api/account/recovery', { email: 'nobody@example.com' })
    expect(unknown.json()).toEqual({ title: 'No account uses this e-mail address', status: 404 })
    expect(unknown.statusCode).toBe(404)
    await setAccountPolicy(t.app, { emailConfirmationRequired: false })
    const user = await registeredUser(t.app)
    const off = await new Agent(t.app).post('/api/account/recovery', { email: user.email })
    expect(off.json()).toEqual({
      title: 'Password reset by e-mail is off; ask an administrator',
      status: 400,
    })
  })

  it('rejects malformed reset requests with 400', async () => {
    for (const body of [
      {},
      { password: 'Str0nger', email: '!!', rToken: '!!' },
      { password: 1, email: 'a', rToken: 'b' },
    ]) {
      const res = await new Agent(t.app).post('/api/account/passwordreset', body)
      expect(res.statusCode).toBe(400)
      expect(res.json().status).toBe(400)
    }
  })
})

describe('e-mail change (PUT /api/account/changeemail, POST /mailchangeconfirm)', () => {
  it('mails the new address and changes the e-mail only when the link is used by its owner', async () => {
    const user = await registeredUser(t.app)
    const newMail = `${uniqueName('m')}@example.org`
    const res = await user.agent.put('/api/account/changeemail', { newMail })
    expect(res.json()).toEqual({
      title: 'A confirmation link has been sent to the new address',
      data: true,
      status: 200,
    })
    expect((await user.agent.get('/api/account/profile')).json().email).toBe(user.email)

    const link = linkIn(await smtp.mailTo(newMail))
    expect(link.path).toBe('confirm')
    const stranger = await registeredUser(t.app)
    const stolen = await stranger.agent.post('/api/account/mailchangeconfirm', {
      token: link.token,
      email: link.email,
    })
    expect(stolen.statusCode).toBe(400)
    expect((await stranger.agent.get('/api/account/profile')).json().email).toBe(stranger.email)
  })

  it('applies the new address for the user who asked', async () => {
    const user = await registeredUser(t.app)
    const newMail = `${uniqueName('m')}@example.org`
    await user.agent.put('/api/account/changeemail', { newMail })
    const link = linkIn(await smtp.mailTo(newMail))
    const ok = await user.agent.post('/api/account/mailchangeconfirm', {
      token: link.token,
      email: link.email,
    })
    expect(ok.statusCode).toBe(200)
    expect((await user.agent.get('/api/account/profile')).json().email).toBe(newMail)
    const login = await new Agent(t.app).post('/api/account/login', { userName: newMail, password: PASSWORD })
    expect(login.statusCode).toBe(200)
  })

  it('refuses an address in use, and answers data:false when e-mail change is off', async () => {
    const a = await registeredUser(t.app)
    const b = await registeredUser(t.app)
    const used = await a.agent.put('/api/account/changeemail', { newMail: b.email })
    expect(used.json()).toEqual({ title: 'This e-mail address is already in use', status: 400 })
    await setAccountPolicy(t.app, { emailConfirmationRequired: false })
    const off = await a.agent.put('/api/account/changeemail', { newMail: `${uniqueName('m')}@example.org` })
    expect(off.statusCode).toBe(400)
    expect(off.json()).toEqual({
      title: 'E-mail change is off; ask an administrator',
      data: false,
      status: 400,
    })
  })

  it('needs a session', async () => {
    const res = await new Agent(t.app).put('/api/account/changeemail', { newMail: 'a@b.co' })
    expect(res.statusCode).toBe(401)
    const confirm = await new Agent(t.app).post('/api/account/mailchangeconfirm', { token: 'a', email: 'b' })
    expect(confirm.statusCode).toBe(401)
  })
})
