import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptedPlayer, adminAgent, createGame } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { containerChallenge } from './helpers.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp({ CONTAINER_BACKEND: 'none' })
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

describe('containers switched off', () => {
  it('answers every container route with a clear 400, and the rest of a game still plays', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/container/${c.id}`
    for (const res of [
      await player.agent.post(url),
      await admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/container`),
    ]) {
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ title: expect.stringMatching(/not configured/), status: 400 })
    }
    // Nothing to extend or destroy, and the challenge itself still opens.
    expect((await player.agent.post(`${url}/extend`)).json().title).toMatch(/no container/)
    expect((await player.agent.delete(url)).json().title).toMatch(/no container/)
    const detail = await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    expect(detail.statusCode).toBe(200)
    expect(detail.json().context.instanceEntry).toBeNull()

    expect((await admin.get('/api/ext/containers/status')).json()).toMatchObject({
      backend: 'none',
      available: false,
    })
    expect((await admin.get('/api/admin/instances')).json()).toEqual({ data: [], length: 0, total: 0 })
  })
})
