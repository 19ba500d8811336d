import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { acceptedPlayer, adminAgent, createGame, registeredUser, setRole } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
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
      isolation: null,
    })
    expect((await admin.get('/api/admin/instances')).json()).toEqual({ data: [], length: 0, total: 0 })
    const build = await admin.upload('POST', '/api/edit/images?tag=pennant-test-x:1', {
      bytes: Buffer.alloc(1024),
      name: 'context.tar',
      type: 'application/x-tar',
    })
    expect(build.json()).toEqual({ title: expect.stringMatching(/not configured/), status: 400 })
  })
})

describe('who may call the container routes', () => {
  it('asks anonymous callers to sign in, keeps admin routes to admins, and refuses malformed ids', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const user = await registeredUser(t.app)
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    const anonymous = new Agent(t.app)
    const guid = '00000000-0000-4000-8000-000000000000'
    const routes: [string, string, 'user' | 'admin'][] = [
      ['POST', `/api/game/${game.id}/container/${c.id}`, 'user'],
      ['POST', `/api/game/${game.id}/container/${c.id}/extend`, 'user'],
      ['DELETE', `/api/game/${game.id}/container/${c.id}`, 'user'],
      ['POST', `/api/edit/games/${game.id}/challenges/${c.id}/container`, 'admin'],
      ['DELETE', `/api/edit/games/${game.id}/challenges/${c.id}/container`, 'admin'],
      ['GET', '/api/admin/instances', 'admin'],
      ['DELETE', `/api/admin/instances/${guid}`, 'admin'],
      ['GET', '/api/ext/containers/status', 'admin'],
      ['POST', '/api/edit/images?tag=pennant-test-x:1', 'admin'],
    ]
    for (const [method, url, level] of routes) {
      const call = (agent: Agent) => agent.request({ method: method as 'GET', url })
      expect((await call(anonymous)).statusCode, `${method} ${url}`).toBe(401)
      if (level === 'admin') {
        expect((await call(user.agent)).statusCode, `${method} ${url}`).toBe(403)
        expect((await call(monitor.agent)).statusCode, `${method} ${url}`).toBe(403)
      } else {
        // Signed in but not playing this game.
        const res = await call(user.agent)
        expect(res.statusCode, `${method} ${url}`).toBe(400)
        expect(res.json().title).toMatch(/not joined/)
      }
    }
    for (const url of ['/api/game/x/container/1', '/api/game/1/container/0', '/api/game/1/container/1e3']) {
      const res = await user.agent.post(url)
      expect(res.statusCode, url).toBe(400)
      expect(res.json().status).toBe(400)
    }
    expect((await admin.delete('/api/admin/instances/not-a-guid')).statusCode).toBe(400)
    expect((await admin.delete(`/api/admin/instances/${guid}`)).statusCode).toBe(404)
  })
})
