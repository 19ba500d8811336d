import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAdjustableClock } from '../../src/infra/clock/index.ts'
import { acceptedPlayer, adminAgent, createGame, registeredUser, staticChallenge } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

const HOUR = 3600_000

describe('POST /api/ext/test/clock (PENNANT_TEST_CLOCK=1 only)', () => {
  let t: TestApp
  let admin: Agent
  beforeAll(async () => {
    t = await createTestApp({}, { testClock: createAdjustableClock() })
    admin = await adminAgent(t.app)
  })
  afterAll(() => t.close())

  it('lets an admin move the clock forward, and the game rules follow it', async () => {
    const start = t.clock.now() + HOUR
    const game = await createGame(admin, { start, end: start + HOUR, practiceMode: false })
    const c = await staticChallenge(admin, game.id, 'flag{later}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    const open = () => player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    // 10001: not started, 10002: ended (the contract's game codes).
    expect((await open()).json()).toMatchObject({ status: 10001 })

    const moved = await admin.post('/api/ext/test/clock', { advanceMs: HOUR })
    expect(moved.statusCode, moved.body).toBe(200)
    expect(moved.json().offsetMs).toBe(HOUR)
    expect(moved.json().now).toBeGreaterThanOrEqual(start)
    expect((await open()).statusCode).toBe(200)

    await admin.post('/api/ext/test/clock', { advanceMs: HOUR })
    expect((await open()).json()).toMatchObject({ status: 10002 })
  })

  it('refuses anyone but an admin, and anything but a forward step', async () => {
    const user = await registeredUser(t.app)
    expect((await user.agent.post('/api/ext/test/clock', { advanceMs: 1 })).statusCode).toBe(403)
    for (const body of [{ advanceMs: -1 }, { advanceMs: 1.5 }, { advanceMs: 'soon' }, {}]) {
      const res = await admin.post('/api/ext/test/clock', body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json()).toMatchObject({ status: 400 })
    }
    const doc = (await admin.get('/openapi/v1.json')).json()
    expect(Object.keys(doc.paths)).not.toContain('/api/ext/test/clock')
  })
})

describe('without PENNANT_TEST_CLOCK', () => {
  let t: TestApp
  beforeAll(async () => {
    t = await createTestApp()
  })
  afterAll(() => t.close())

  it('has no such route, for admins either', async () => {
    const admin = await adminAgent(t.app)
    const res = await admin.post('/api/ext/test/clock', { advanceMs: HOUR })
    expect(res.statusCode).toBe(404)
    expect(t.clock.offset()).toBe(0)
  })
})
