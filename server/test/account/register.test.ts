import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { PASSWORD, registeredUser, setAccountPolicy, uniqueName } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { linkIn, startSmtp } from '../helpers/smtp.ts'

let t: TestApp
let smtp: Awaited<ReturnType<typeof startSmtp>>
beforeAll(async () => {
  smtp = await startSmtp()
  t = await createTestApp(smtp.env)
})
afterAll(async () => {
  await t.close()
  await smtp.close()
})
beforeEach(() => setAccountPolicy(t.app, {}))

const newUser = () => {
  const userName = uniqueName('r')
  return { userName, email: `${userName}@example.com`, password: PASSWORD }
}

describe('POST /api/account/register', () => {
  it('creates an active account and signs it in by default', async () => {
    const agent = new Agent(t.app)
    const user = newUser()
    const res = await agent.post('/api/account/register', user)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ data: 'LoggedIn', status: 200 })
    const profile = await agent.get('/api/account/profile')
    expect(profile.json()).toMatchObject({ userName: user.userName, email: user.email, role: 'User' })
  })

  it('refuses a user name or e-mail that is taken, ignoring case', async () => {
    const existing = await registeredUser(t.app)
    const sameName = await new Agent(t.app).post('/api/account/register', {
      ...newUser(),
      userName: existing.userName.toUpperCase(),
    })
    expect(sameName.statusCode).toBe(400)
    expect(sameName.json()).toEqual({ title: 'This user name is taken', status: 400 })
    const sameMail = await new Agent(t.app).post('/api/account/register', {
      ...newUser(),
      email: existing.email.toUpperCase(),
    })
    expect(sameMail.json()).toEqual({
      title: 'An account with this e-mail address already exists',
      status: 400,
    })
  })

  it.each([
    [{ password: 'short' }, /password needs/],
    [{ password: 'alllowercase1' }, /password needs/],
    [{ userName: 'ab' }, /userName must NOT have fewer than 3 characters/],
    [{ userName: 'a'.repeat(16) }, /userName must NOT have more than 15 characters/],
    [{ email: 'not-an-email' }, /email must match format "email"/],
    [{ email: 42 }, /email must be string/],
    [{ userName: null }, /userName must be string/],
    [{ password: undefined }, /password is required/],
  ])('rejects %j with a 400 that says why', async (patch, title) => {
    const res = await new Agent(t.app).post('/api/account/register', { ...newUser(), ...patch })
    expect(res.statusCode).toBe(400)
    expect(res.json().status).toBe(400)
    expect(res.json().title).toMatch(title)
  })

  it('is refused while registration is closed', async () => {
    await setAccountPolicy(t.app, { allowRegister: false })
    const res = await new Agent(t.app).post('/api/account/register', newUser())
    expect(res.json()).toEqual({ title: 'Registration is closed', status: 400 })
  })

  it('only accepts the allowed e-mail domains, exactly', async () => {
    await setAccountPolicy(t.app, { emailDomainList: 'school.edu, lab.org' })
    const user = newUser()
    const refused = await new Agent(t.app).post('/api/account/register', {
      ...user,
      email: 'x@sub.school.edu',
    })
    expect(refused.json()).toEqual({
      title: 'Only e-mail addresses at these domains may register: school.edu, lab.org',
      status: 400,
    })
    const ok = await new Agent(t.app).post('/api/account/register', {
      ...user,
      email: `${user.userName}@lab.org`,
    })
    expect(ok.statusCode).toBe(200)
  })

  it('leaves the account waiting for an administrator when neither active nor mail-confirmed', async () => {
    await setAccountPolicy(t.app, { activeOnRegister: false, emailConfirmationRequired: false })
    const user = newUser()
    const agent = new Agent(t.app)
    const res = await agent.post('/api/account/register', user)
    expect(res.json()).toMatchObject({ data: 'AdminConfirmationRequired', status: 200 })
    expect((await agent.get('/api/account/profile')).statusCode).toBe(401)
    const login = await agent.post('/api/account/login', { userName: user.userName, password: user.password })
    expect(login.statusCode).toBe(401)
  })

  it('mails a confirmation link that confirms, signs in, and works only once', async () => {
    await setAccountPolicy(t.app, { activeOnRegister: false, emailConfirmationRequired: true })
    const user = newUser()
    const res = await new Agent(t.app).post('/api/account/register', user)
    expect(res.json()).toMatchObject({ data: 'EmailConfirmationRequired', status: 200 })

    const mail = await smtp.mailTo(user.email)
    expect(mail.subject).toBe('Confirm your e-mail address - Pennant::CTF')
    expect(mail.html).toContain('/account/verify?token=')
    const link = linkIn(mail)
    expect(link.path).toBe('verify')
    expect(Buffer.from(link.email, 'base64').toString()).toBe(user.email)

    const browser = new Agent(t.app)
    const verify = await browser.post('/api/account/verify', { token: link.token, email: link.email })
    expect(verify.statusCode).toBe(200)
    expect((await browser.get('/api/account/profile')).json().userName).toBe(user.userName)

    const again = await new Agent(t.app).post('/api/account/verify', { token: link.token, email: link.email })
    expect(again.json()).toEqual({ title: 'The link is invalid or has expired', status: 400 })
    const login = await new Agent(t.app).post('/api/account/login', {
      userName: user.userName,
      password: user.password,
    })
    expect(login.statusCode).toBe(200)
  })

  it('refuses a forged or malformed confirmation token with 401 / 400', async () => {
    await setAccountPolicy(t.app, { activeOnRegister: false, emailConfirmationRequired: true })
    const user = newUser()
    await new Agent(t.app).post('/api/account/register', user)
    await smtp.mailTo(user.email)
    const email = Buffer.from(user.email).toString('base64')
    const forged = await new Agent(t.app).post('/api/account/verify', {
      token: Buffer.from('forged-token').toString('base64'),
      email,
    })
    expect(forged.json()).toEqual({ title: 'The confirmation link is invalid or has expired', status: 401 })
    const garbage = await new Agent(t.app).post('/api/account/verify', {
      token: '%%%not base64%%%',
      email: '***',
    })
    expect(garbage.statusCode).toBe(400)
  })

  it('never signs anyone into an unconfirmed account by registering its e-mail again', async () => {
    await setAccountPolicy(t.app, { activeOnRegister: false, emailConfirmationRequired: true })
    const victim = newUser()
    await new Agent(t.app).post('/api/account/register', victim)
    await smtp.mailTo(victim.email)
    await setAccountPolicy(t.app, { activeOnRegister: true })
    const attacker = new Agent(t.app)
    const res = await attacker.post('/api/account/register', {
      ...newUser(),
      email: victim.email,
      password: 'Attack3r!',
    })
    expect(res.json()).toEqual({ title: 'An account with this e-mail address already exists', status: 400 })
    expect((await attacker.get('/api/account/profile')).statusCode).toBe(401)
    // Its owner, knowing name and password, may continue the registration.
    const owner = new Agent(t.app)
    const resumed = await owner.post('/api/account/register', victim)
    expect(resumed.json()).toMatchObject({ data: 'LoggedIn' })
  })
})

describe('POST /api/account/register without a mail server', () => {
  let bare: TestApp
  beforeAll(async () => {
    bare = await createTestApp()
  })
  afterAll(() => bare.close())

  it('says mail is not configured instead of pretending, and creates nothing', async () => {
    await setAccountPolicy(bare.app, { activeOnRegister: false, emailConfirmationRequired: true })
    const user = newUser()
    const res = await new Agent(bare.app).post('/api/account/register', user)
    expect(res.json()).toEqual({
      title: 'This server has no mail service configured; ask an administrator',
      status: 400,
    })
    await setAccountPolicy(bare.app, {})
    const later = await new Agent(bare.app).post('/api/account/register', user)
    expect(later.json()).toMatchObject({ data: 'LoggedIn' })
  })
})
