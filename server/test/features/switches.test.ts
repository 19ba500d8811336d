import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const ALL_OFF = {
  freeze: false,
  scheduledRelease: false,
  bigScreen: false,
  ctftime: false,
  gameTransfer: false,
  oidc: false,
  webhooks: false,
}

describe('our additions’ switches (/api/ext/features)', () => {
  it('start all off, and anyone may read them', async () => {
    const res = await new Agent(t.app).get('/api/ext/features')
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual(ALL_OFF)
  })

  it('are changed by admins only: anonymous 401, user 403, nothing changes', async () => {
    expect((await new Agent(t.app).put('/api/ext/features', { freeze: true })).statusCode).toBe(401)
    const user = await registeredUser(t.app)
    const res = await user.agent.put('/api/ext/features', { freeze: true })
    expect(res.statusCode).toBe(403)
    expect((await new Agent(t.app).get('/api/ext/features')).json()).toEqual(ALL_OFF)
  })

  it('refuse a value that is not a boolean with a 400, and ignore names they do not know', async () => {
    expect((await admin.put('/api/ext/features', { teleport: true })).json()).toEqual(ALL_OFF)
    for (const body of [{ freeze: 'yes' }, { oidc: null }, [true], 'on']) {
      const res = await admin.put('/api/ext/features', body)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ status: 400, title: expect.any(String) })
    }
    expect((await new Agent(t.app).get('/api/ext/features')).json()).toEqual(ALL_OFF)
  })

  it('keep the switches left out, and leave the GZCTF settings shape as it was', async () => {
    await admin.put('/api/ext/features', { freeze: true, webhooks: true })
    const res = await admin.put('/api/ext/features', { webhooks: false, ctftime: true })
    expect(res.json()).toEqual({ ...ALL_OFF, freeze: true, ctftime: true })
    expect(t.app.deps.services.settings.isOn('freeze')).toBe(true)
    const config = (await admin.get('/api/admin/config')).json()
    expect(Object.keys(config).sort()).toEqual(['accountPolicy', 'containerPolicy', 'globalConfig'])
  })
})
