import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { users } from '../../src/db/schema.ts'
import { adminAgent, registeredUser, setRole, uniqueName } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { IdpBrowser, startTestIdp, type TestIdp } from '../helpers/oidc-idp.ts'

const PUBLIC = 'http://pennant.test'
const callback = (slug: string) => `${PUBLIC}/api/ext/oidc/${slug}/callback`

let t: TestApp
let idp: TestIdp
let admin: Agent
let providerId: number

beforeAll(async () => {
  t = await createTestApp({ PUBLIC_URL: PUBLIC })
  idp = await startTestIdp({ redirectUris: [callback('test'), callback('closed')] })
  admin = await adminAgent(t.app)
  const res = await admin.post('/api/ext/admin/identity-providers', {
    slug: 'test',
    displayName: 'Test University',
    issuer: idp.issuer,
    clientId: idp.clientId,
    clientSecret: idp.clientSecret,
    allowSignUp: true,
  })
  expect(res.statusCode).toBe(200)
  providerId = res.json().id
})
afterAll(async () => {
  await t?.close()
  await idp?.close()
})

const switchOidc = async (on: boolean) =>
  expect((await admin.put('/api/ext/features', { oidc: on })).statusCode).toBe(200)

/** An account at the provider, with a fresh subject. */
function idpAccount(claims: Parameters<TestIdp['accounts']['set']>[1]): string {
  const sub = uniqueName('sub')
  idp.accounts.set(sub, claims)
  return sub
}

/** Start → the provider's login page → back: the URL the provider sends the browser to. */
async function throughProvider(
  agent: Agent,
  account: string | null,
  opts: { slug?: string; from?: string } = {},
) {
  const query = opts.from ? `?from=${encodeURIComponent(opts.from)}` : ''
  const start = await agent.get(`/api/ext/oidc/${opts.slug ?? 'test'}/start${query}`)
  expect(start.statusCode).toBe(302)
  return new IdpBrowser().signIn(start.headers.location as string, account, PUBLIC)
}

/** Hands the provider's answer to Pennant, as the browser would. */
const back = (agent: Agent, exit: string) => {
  const url = new URL(exit)
  return agent.get(url.pathname + url.search)
}

const signIn = async (agent: Agent, account: string | null, opts: { slug?: string; from?: string } = {}) =>
  back(agent, await throughProvider(agent, account, opts))

/** Where a redirect lands, with its query as an object. */
function landing(res: { statusCode: number; headers: Record<string, unknown> }) {
  expect(res.statusCode).toBe(302)
  const url = new URL(res.headers.location as string, PUBLIC)
  return { path: url.pathname, query: Object.fromEntries(url.searchParams) }
}

const profile = async (agent: Agent) => {
  const res = await agent.get('/api/account/profile')
  return res.statusCode === 200 ? (res.json() as { userName: string; email: string; userId: string }) : null
}

describe('switched off (the default)', () => {
  it('hides the providers and sends a sign-in attempt back to the login page with the reason', async () => {
    const anon = new Agent(t.app)
    const list = await anon.get('/api/ext/oidc/providers')
    expect(list.statusCode).toBe(404)
    expect(list.json()).toMatchObject({ status: 404, title: expect.any(String) })
    expect(landing(await anon.get('/api/ext/oidc/test/start?from=/games'))).toEqual({
      path: '/account/login',
      query: { oidcError: 'off', from: '/games' },
    })
    expect(landing(await anon.get('/api/ext/oidc/test/callback?code=x&state=y')).query.oidcError).toBe('off')
    // A `from` that leaves the site is not carried to the login page.
    expect(landing(await anon.get('/api/ext/oidc/test/start?from=//evil.example')).query).toEqual({
      oidcError: 'off',
    })
    const user = await registeredUser(t.app)
    expect((await user.agent.get('/api/ext/oidc/identities')).statusCode).toBe(404)
  })

  it('lets admins configure providers beforehand', async () => {
    expect((await admin.get('/api/ext/admin/identity-providers')).statusCode).toBe(200)
  })

  afterAll(() => switchOidc(true))
})

describe('admin configuration', () => {
  it('is for admins only', async () => {
    const anon = new Agent(t.app)
    expect((await anon.get('/api/ext/admin/identity-providers')).statusCode).toBe(401)
    const user = await registeredUser(t.app)
    for (const res of [
      await user.agent.get('/api/ext/admin/identity-providers'),
      await user.agent.post('/api/ext/admin/identity-providers', { slug: 'x' }),
      await user.agent.put(`/api/ext/admin/identity-providers/${providerId}`, { enabled: false }),
      await user.agent.delete(`/api/ext/admin/identity-providers/${providerId}`),
    ])
      expect(res.statusCode).toBe(403)
  })

  it('never answers the client secret, only its last characters, and gives the redirect URI', async () => {
    const res = await admin.get('/api/ext/admin/identity-providers')
    expect(res.body).not.toContain(idp.clientSecret)
    const [p] = res.json()
    expect(p).toMatchObject({
      slug: 'test',
      displayName: 'Test University',
      clientSecretHint: `…${idp.clientSecret.slice(-4)}`,
      userNameClaim: 'preferred_username',
      emailClaim: 'email',
      allowSignUp: true,
      enabled: true,
      redirectUri: callback('test'),
    })
    expect(p).not.toHaveProperty('clientSecret')
  })

  it('refuses bad input with a 400 in the error shape', async () => {
    const good = {
      slug: 'other',
      displayName: 'Other',
      issuer: 'https://id.example.org',
      clientId: 'c',
      clientSecret: 's',
    }
    for (const body of [
      { ...good, slug: 'Has Spaces' },
      { ...good, slug: '-dash' },
      { ...good, slug: 'a'.repeat(40) },
      { ...good, issuer: 'ftp://id.example.org' },
      { ...good, issuer: 'http://id.example.org' },
      { ...good, issuer: 'not a url at all' },
      { ...good, issuer: 'https://user:pw@id.example.org' },
      { ...good, clientSecret: '' },
      { ...good, displayName: '   ' },
      { ...good, emailClaim: 'has space' },
      { ...good, slug: 'test' }, // taken
      'nonsense',
    ]) {
      const res = await admin.post('/api/ext/admin/identity-providers', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toMatchObject({ status: 400, title: expect.any(String) })
    }
    expect((await admin.put('/api/ext/admin/identity-providers/abc', { enabled: true })).statusCode).toBe(400)
    expect((await admin.put('/api/ext/admin/identity-providers/999999', { enabled: true })).statusCode).toBe(
      404,
    )
    expect((await admin.delete('/api/ext/admin/identity-providers/999999')).statusCode).toBe(404)
    expect(
      (await admin.put(`/api/ext/admin/identity-providers/${providerId}`, { issuer: 'http://evil.example' }))
        .statusCode,
    ).toBe(400)
  })

  it('adds, edits (a blank secret keeps the old one), disables and deletes', async () => {
    const created = await admin.post('/api/ext/admin/identity-providers', {
      slug: 'closed',
      displayName: 'Closed Corp',
      issuer: idp.issuer,
      clientId: idp.clientId,
      clientSecret: 'short',
    })
    expect(created.statusCode).toBe(200)
    expect(created.json()).toMatchObject({ clientSecretHint: '••••', allowSignUp: false, enabled: true })
    const id = created.json().id
    const edited = await admin.put(`/api/ext/admin/identity-providers/${id}`, {
      clientSecret: idp.clientSecret,
      displayName: 'Closed Corporation',
    })
    expect(edited.json()).toMatchObject({ displayName: 'Closed Corporation', slug: 'closed' })
    const kept = await admin.put(`/api/ext/admin/identity-providers/${id}`, { clientSecret: '' })
    expect(kept.json().clientSecretHint).toBe(`…${idp.clientSecret.slice(-4)}`)
    const slugTaken = await admin.put(`/api/ext/admin/identity-providers/${id}`, { slug: 'test' })
    expect(slugTaken.statusCode).toBe(400)

    const disabled = await admin.put(`/api/ext/admin/identity-providers/${id}`, { enabled: false })
    expect(disabled.json().enabled).toBe(false)
    const list = await new Agent(t.app).get('/api/ext/oidc/providers')
    expect(list.json()).toEqual([{ slug: 'test', displayName: 'Test University' }])
    expect(landing(await new Agent(t.app).get('/api/ext/oidc/closed/start')).query.oidcError).toBe(
      'unknown_provider',
    )

    await admin.put(`/api/ext/admin/identity-providers/${id}`, { enabled: true })
    expect((await new Agent(t.app).get('/api/ext/oidc/providers')).json()).toHaveLength(2)
    expect((await admin.delete(`/api/ext/admin/identity-providers/${id}`)).statusCode).toBe(200)
    expect((await new Agent(t.app).get('/api/ext/oidc/providers')).json()).toHaveLength(1)
  })
})

describe('signing in', () => {
  it('starts with a short-lived httpOnly SameSite=Lax cookie and PKCE, state and nonce', async () => {
    const res = await new Agent(t.app).get('/api/ext/oidc/test/start')
    const url = new URL(res.headers.location as string)
    expect(url.origin).toBe(idp.issuer)
    expect(url.searchParams.get('code_challenge_method')).toBe('S256')
    for (const p of ['state', 'nonce', 'code_challenge']) expect(url.searchParams.get(p)).toMatch(/^.{20,}$/)
    expect(url.searchParams.get('redirect_uri')).toBe(callback('test'))
    const cookie = String(res.headers['set-cookie'])
      .split(/,(?=\s*pennant_oidc)/)
      .find((c) => c.includes('pennant_oidc'))
    expect(cookie).toMatch(/HttpOnly/i)
    expect(cookie).toMatch(/SameSite=Lax/i)
    expect(cookie).toMatch(/Max-Age=600/i)
    expect(cookie).toMatch(/Path=\/api\/ext\/oidc/i)
    // The cookie holds a random token, not the checks themselves.
    expect(cookie).not.toContain(url.searchParams.get('state')!)
  })

  it('creates an account from the claims (verified e-mail) and signs it in, then signs in again', async () => {
    const name = uniqueName('oi')
    const sub = idpAccount({ email: `${name}@uni.example`, email_verified: true, preferred_username: name })
    const agent = new Agent(t.app)
    expect(landing(await signIn(agent, sub, { from: '/games/1' }))).toEqual({ path: '/games/1', query: {} })
    const me = await profile(agent)
    expect(me).toMatchObject({ userName: name, email: `${name}@uni.example` })

    const again = new Agent(t.app)
    expect(landing(await signIn(again, sub)).path).toBe('/')
    expect((await profile(again))?.userId).toBe(me!.userId)
    const rows = await t.app.deps.db
      .select()
      .from(users)
      .where(eq(users.normalizedEmail, `${name}@uni.example`))
    expect(rows).toHaveLength(1)
    // No password was made up for it: password sign-in cannot work.
    const login = await new Agent(t.app).post('/api/account/login', { userName: name, password: '' })
    expect(login.statusCode).toBe(400)
    const guess = await new Agent(t.app).post('/api/account/login', { userName: name, password: 'Passw0rd!' })
    expect(guess.statusCode).toBe(401)
  })

  it('makes the user name valid and unique', async () => {
    const taken = await registeredUser(t.app)
    const a = idpAccount({
      email: `${uniqueName('m')}@uni.example`,
      email_verified: true,
      preferred_username: taken.userName,
    })
    const agentA = new Agent(t.app)
    await signIn(agentA, a)
    expect((await profile(agentA))?.userName).toBe(`${taken.userName.slice(0, 14)}2`)

    const local = uniqueName('lp')
    const b = idpAccount({ email: `${local}@uni.example`, email_verified: true, preferred_username: 'x' })
    const agentB = new Agent(t.app)
    await signIn(agentB, b)
    expect((await profile(agentB))?.userName).toBe(local)

    const c = idpAccount({
      email: `${uniqueName('c')}@uni.example`,
      email_verified: true,
      preferred_username: `\u0007 ${'Verylongname'.repeat(3)}`,
    })
    const agentC = new Agent(t.app)
    await signIn(agentC, c)
    const nameC = (await profile(agentC))?.userName
    expect(nameC).toBe('VerylongnameVer')
  })

  it('refuses an unverified or missing e-mail, and creates nothing', async () => {
    const email = `${uniqueName('uv')}@uni.example`
    const unverified = idpAccount({ email, email_verified: false, preferred_username: uniqueName('uv') })
    const agent = new Agent(t.app)
    expect(landing(await signIn(agent, unverified, { from: '/games' }))).toEqual({
      path: '/account/login',
      query: { oidcError: 'email_unverified', from: '/games' },
    })
    expect(await profile(agent)).toBeNull()
    expect(await t.app.deps.db.select().from(users).where(eq(users.normalizedEmail, email))).toHaveLength(0)

    const none = idpAccount({ preferred_username: uniqueName('ne') })
    expect(landing(await signIn(new Agent(t.app), none)).query.oidcError).toBe('email_missing')
  })

  it('does not hand over an existing account that has the same e-mail', async () => {
    const owner = await registeredUser(t.app)
    const sub = idpAccount({ email: owner.email, email_verified: true, preferred_username: 'intruder' })
    const agent = new Agent(t.app)
    expect(landing(await signIn(agent, sub)).query.oidcError).toBe('email_taken')
    expect(await profile(agent)).toBeNull()
  })

  it('refuses a new account when sign-up through the provider is off', async () => {
    await admin.put(`/api/ext/admin/identity-providers/${providerId}`, { allowSignUp: false })
    try {
      const sub = idpAccount({ email: `${uniqueName('so')}@uni.example`, email_verified: true })
      const agent = new Agent(t.app)
      expect(landing(await signIn(agent, sub)).query.oidcError).toBe('signup_closed')
      expect(await profile(agent)).toBeNull()
    } finally {
      await admin.put(`/api/ext/admin/identity-providers/${providerId}`, { allowSignUp: true })
    }
  })

  it('refuses a banned user', async () => {
    const name = uniqueName('ban')
    const sub = idpAccount({ email: `${name}@uni.example`, email_verified: true, preferred_username: name })
    await signIn(new Agent(t.app), sub)
    await setRole(t.app, name, 0)
    const agent = new Agent(t.app)
    expect(landing(await signIn(agent, sub)).query.oidcError).toBe('banned')
    expect(await profile(agent)).toBeNull()
  })

  it('holds a new account for an admin when the policy asks for approval', async () => {
    const policy = (await admin.get('/api/admin/config')).json().accountPolicy
    await admin.put('/api/admin/config', {
      accountPolicy: { ...policy, activeOnRegister: false, emailConfirmationRequired: false },
    })
    try {
      const sub = idpAccount({ email: `${uniqueName('ap')}@uni.example`, email_verified: true })
      const agent = new Agent(t.app)
      expect(landing(await signIn(agent, sub)).query.oidcError).toBe('awaiting_activation')
      expect(await profile(agent)).toBeNull()
      expect(landing(await signIn(agent, sub)).query.oidcError).toBe('not_confirmed')
    } finally {
      await admin.put('/api/admin/config', { accountPolicy: policy })
    }
  })

  it('refuses a wrong state, a callback without its cookie, and the same callback twice', async () => {
    const sub = idpAccount({ email: `${uniqueName('st')}@uni.example`, email_verified: true })
    const agent = new Agent(t.app)
    const exit = new URL(await throughProvider(agent, sub))
    const forged = new URL(exit)
    forged.searchParams.set('state', 'forged-state-value-forged-state-value')
    expect(landing(await back(agent, forged.toString())).query.oidcError).toBe('state')
    expect(await profile(agent)).toBeNull()

    // The flow was spent by the forged attempt: the genuine answer cannot be used after it.
    expect(landing(await back(agent, exit.toString())).query.oidcError).toBe('state')

    // Someone else's browser (no flow cookie) cannot use a genuine answer either.
    const victim = new Agent(t.app)
    const exit2 = await throughProvider(victim, sub)
    expect(landing(await back(new Agent(t.app), exit2)).query.oidcError).toBe('state')

    // The first use of a genuine answer works; the second (a replay) does not.
    const ok = new Agent(t.app)
    const exit3 = await throughProvider(ok, sub)
    expect(landing(await back(ok, exit3)).path).toBe('/')
    expect(landing(await back(ok, exit3)).query.oidcError).toBe('state')
  })

  it('refuses an expired code, and a code replayed in a new attempt', async () => {
    const sub = idpAccount({ email: `${uniqueName('ex')}@uni.example`, email_verified: true })
    idp.codeTtl = 1
    try {
      const agent = new Agent(t.app)
      const exit = await throughProvider(agent, sub)
      // real wait: the identity provider's own code lifetime (another server, whole seconds)
      await new Promise((r) => setTimeout(r, 2100))
      expect(landing(await back(agent, exit)).query.oidcError).toBe('exchange')
      expect(await profile(agent)).toBeNull()
    } finally {
      idp.codeTtl = 60
    }

    // A code already redeemed, presented again under a fresh, genuine state.
    const first = new Agent(t.app)
    const used = new URL(await throughProvider(first, sub))
    expect(landing(await back(first, used.toString())).path).toBe('/')
    const second = new Agent(t.app)
    const fresh = new URL(await throughProvider(second, sub))
    fresh.searchParams.set('code', used.searchParams.get('code')!)
    expect(landing(await back(second, fresh.toString())).query.oidcError).toBe('exchange')
    expect(await profile(second)).toBeNull()
  })

  it('says so when the user cancels at the provider', async () => {
    expect(landing(await signIn(new Agent(t.app), null)).query.oidcError).toBe('denied')
  })

  it('keeps `from` on this site', async () => {
    const sub = idpAccount({ email: `${uniqueName('fr')}@uni.example`, email_verified: true })
    for (const from of ['//evil.example', 'https://evil.example', '/\\evil.example', '/ok\nx']) {
      expect(landing(await signIn(new Agent(t.app), sub, { from })).path).toBe('/')
    }
  })

  it('answers an unknown provider with the login page, not an error body', async () => {
    const res = await new Agent(t.app).get('/api/ext/oidc/nope/start')
    expect(landing(res)).toEqual({ path: '/account/login', query: { oidcError: 'unknown_provider' } })
    expect(landing(await new Agent(t.app).get('/api/ext/oidc/nope/callback')).query.oidcError).toBe(
      'unknown_provider',
    )
  })
})

describe('linking from the profile', () => {
  it('links a signed-in account, which then signs in through the provider', async () => {
    const user = await registeredUser(t.app)
    const before = (await user.agent.get('/api/ext/oidc/identities')).json()
    expect(before).toEqual({
      hasPassword: true,
      providers: [{ slug: 'test', displayName: 'Test University', enabled: true, linkedAt: null }],
    })
    // Linking changes state: a POST that needs the XSRF token, not a GET anyone could trigger.
    const noXsrf = new Agent(t.app)
    noXsrf.cookies.set('pennant_token', user.agent.cookies.get('pennant_token')!)
    noXsrf.xsrf = false
    expect((await noXsrf.post('/api/ext/oidc/test/link')).statusCode).toBe(403)
    expect((await new Agent(t.app).post('/api/ext/oidc/test/link')).statusCode).toBe(401)
    expect((await user.agent.post('/api/ext/oidc/nope/link')).statusCode).toBe(404)

    const sub = idpAccount({ email: 'someone-else@uni.example', email_verified: false })
    const link = await user.agent.post('/api/ext/oidc/test/link')
    expect(link.statusCode).toBe(200)
    const exit = await new IdpBrowser().signIn(link.json().url, sub, PUBLIC)
    expect(landing(await back(user.agent, exit))).toEqual({
      path: '/account/profile',
      query: { oidcLinked: 'test' },
    })
    const after = (await user.agent.get('/api/ext/oidc/identities')).json()
    expect(after.providers[0].linkedAt).toEqual(expect.any(Number))

    // The linked identity signs in to that account (whatever e-mail the provider has).
    const elsewhere = new Agent(t.app)
    expect(landing(await signIn(elsewhere, sub)).path).toBe('/')
    expect((await profile(elsewhere))?.userName).toBe(user.userName)

    // Linking the same identity again to the same account is fine; to another one is not.
    const again = await user.agent.post('/api/ext/oidc/test/link')
    expect(
      landing(await back(user.agent, await new IdpBrowser().signIn(again.json().url, sub, PUBLIC))),
    ).toEqual({
      path: '/account/profile',
      query: { oidcLinked: 'test' },
    })
    const other = await registeredUser(t.app)
    const steal = await other.agent.post('/api/ext/oidc/test/link')
    const stolen = await back(other.agent, await new IdpBrowser().signIn(steal.json().url, sub, PUBLIC))
    expect(landing(stolen)).toEqual({ path: '/account/profile', query: { oidcError: 'already_linked' } })

    // A second identity at the same provider for the same account is refused.
    const second = idpAccount({ email: 'x@uni.example', email_verified: true })
    const more = await user.agent.post('/api/ext/oidc/test/link')
    const twice = await back(user.agent, await new IdpBrowser().signIn(more.json().url, second, PUBLIC))
    expect(landing(twice).query.oidcError).toBe('already_has')
  })

  it('finishes a link only in the browser of the account that started it', async () => {
    const user = await registeredUser(t.app)
    const intruder = await registeredUser(t.app)
    const sub = idpAccount({ email: 'ls@uni.example', email_verified: true })
    const link = await user.agent.post('/api/ext/oidc/test/link')
    const exit = await new IdpBrowser().signIn(link.json().url, sub, PUBLIC)
    // Same flow cookie, but the session now belongs to someone else.
    const swapped = new Agent(t.app)
    swapped.cookies.set('pennant_oidc', user.agent.cookies.get('pennant_oidc')!)
    swapped.cookies.set('pennant_token', intruder.agent.cookies.get('pennant_token')!)
    expect(landing(await back(swapped, exit)).query.oidcError).toBe('link_session')
    expect((await user.agent.get('/api/ext/oidc/identities')).json().providers[0].linkedAt).toBeNull()
  })

  it('unlinks only when the account keeps a way to sign in', async () => {
    const name = uniqueName('ul')
    const sub = idpAccount({ email: `${name}@uni.example`, email_verified: true, preferred_username: name })
    const agent = new Agent(t.app)
    await signIn(agent, sub)
    expect((await agent.get('/api/ext/oidc/identities')).json().hasPassword).toBe(false)
    const refused = await agent.delete('/api/ext/oidc/identities/test')
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ status: 400, title: expect.stringMatching(/only way to sign in/) })
    expect((await agent.delete('/api/ext/oidc/identities/nope')).statusCode).toBe(404)

    const user = await registeredUser(t.app)
    expect((await user.agent.delete('/api/ext/oidc/identities/test')).statusCode).toBe(404)
    const linkSub = idpAccount({ email: 'ul2@uni.example', email_verified: true })
    const link = await user.agent.post('/api/ext/oidc/test/link')
    await back(user.agent, await new IdpBrowser().signIn(link.json().url, linkSub, PUBLIC))
    expect((await user.agent.delete('/api/ext/oidc/identities/test')).statusCode).toBe(200)
    expect((await user.agent.get('/api/ext/oidc/identities')).json().providers[0].linkedAt).toBeNull()
    // Unlinked: that identity no longer reaches the account (its e-mail makes a new one instead).
    const fresh = new Agent(t.app)
    await signIn(fresh, linkSub)
    expect((await profile(fresh))?.userName).not.toBe(user.userName)
  })
})

describe('the OpenAPI document', () => {
  it('describes every route under /api/ext', async () => {
    const doc = (await new Agent(t.app).get('/openapi/v1.json')).json()
    for (const path of [
      '/api/ext/oidc/providers',
      '/api/ext/oidc/{slug}/start',
      '/api/ext/oidc/{slug}/callback',
      '/api/ext/oidc/{slug}/link',
      '/api/ext/oidc/identities',
      '/api/ext/oidc/identities/{slug}',
      '/api/ext/admin/identity-providers',
      '/api/ext/admin/identity-providers/{id}',
    ])
      expect(doc.paths, path).toHaveProperty([path])
  })
})
