import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PASSWORD, registeredUser, uniqueName } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const register = (agent: Agent) => {
  const userName = uniqueName('l')
  return agent.post('/api/account/register', {
    userName,
    email: `${userName}@example.com`,
    password: PASSWORD,
  })
}

describe('rate limits', () => {
  it('allows 20 registrations per address in 150 s, then answers 429 with Retry-After', async () => {
    const agent = new Agent(t.app)
    for (let i = 0; i < 20; i++) expect((await register(agent)).statusCode).toBe(200)
    const limited = await register(agent)
    expect(limited.statusCode).toBe(429)
    const retry = Number(limited.headers['retry-after'])
    expect(retry).toBeGreaterThan(0)
    expect(retry).toBeLessThanOrEqual(150)
    expect(limited.json()).toEqual({ title: `Too many requests; try again in ${retry} s`, status: 429 })
  })

  it('counts each address on its own: one client cannot exhaust a limit for everyone', async () => {
    const noisy = new Agent(t.app)
    for (let i = 0; i < 21; i++) await noisy.post('/api/account/recovery', { email: 'x@example.com' })
    expect((await noisy.post('/api/account/recovery', { email: 'x@example.com' })).statusCode).toBe(429)
    expect((await register(new Agent(t.app))).statusCode).toBe(200)
  })

  it('counts a signed-in user by account, not by address', async () => {
    const user = await registeredUser(t.app)
    // The same person from a second address shares the per-user budget of the Register policy.
    const elsewhere = new Agent(t.app)
    for (const [k, v] of user.agent.cookies) elsewhere.cookies.set(k, v)
    let last = 0
    for (let i = 0; i < 21; i++) {
      const agent = i % 2 ? elsewhere : user.agent
      last = (await agent.put('/api/account/changeemail', { newMail: `${uniqueName('z')}@example.com` }))
        .statusCode
    }
    expect(last).toBe(429)
  })

  it('applies the global limit of 150 requests a minute to non-local clients', async () => {
    const agent = new Agent(t.app)
    const statuses: number[] = []
    for (let i = 0; i < 151; i++) statuses.push((await agent.get('/api/captcha')).statusCode)
    expect(statuses.slice(0, 150).every((s) => s === 200)).toBe(true)
    expect(statuses[150]).toBe(429)
    const local = new Agent(t.app, '127.0.0.1')
    for (let i = 0; i < 160; i++) expect((await local.get('/api/captcha')).statusCode).toBe(200)
  })
})
