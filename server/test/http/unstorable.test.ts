import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, createChallenge, createGame, registeredUser } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

// Text the database cannot store: PostgreSQL refuses NUL and lone UTF-16 surrogates (which JSON
// can carry as escapes). Every route answers 400 naming the field, checked once for all routes.
let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

/** Sends `json` verbatim: the escapes reach the server as written. */
const send = (agent: Agent, method: 'POST' | 'PUT', url: string, json: string) =>
  agent.request({ method, url, payload: json, headers: { 'content-type': 'application/json' } })

describe('text the database cannot store', () => {
  it('is a 400 naming the field, for lone surrogates and NUL, on notices, hints and the config', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    for (const bad of ['\\ud800', 'a\\udc00b', '\\udfff\\ud800', 'x\\u0000']) {
      const cases = [
        ['POST', `/api/edit/games/${game.id}/notices`, `{"content":"${bad}"}`, 'content'],
        ['PUT', `/api/edit/games/${game.id}/challenges/${c.id}`, `{"hints":["ok","${bad}"]}`, 'hints[1]'],
        ['PUT', '/api/admin/config', `{"globalConfig":{"title":"${bad}"}}`, 'globalConfig.title'],
        ['PUT', '/api/admin/config', `{"globalConfig":{"title":"ok","${bad}":1}}`, 'globalConfig'],
      ] as const
      for (const [method, url, json, field] of cases) {
        const res = await send(admin, method, url, json)
        expect(res.statusCode, `${url} ${json}`).toBe(400)
        expect(res.json().status).toBe(400)
        expect(res.json().title, json).toContain(field)
      }
    }
    // A well-formed pair (an emoji, escaped) is stored and read back.
    const ok = await send(
      admin,
      'POST',
      `/api/edit/games/${game.id}/notices`,
      '{"content":"flag \\ud83d\\udea9"}',
    )
    expect(ok.statusCode, ok.body).toBe(200)
    expect(ok.json().values ?? ok.json().content).toContain('flag 🚩')
    expect((await admin.get('/api/admin/config')).statusCode).toBe(200)
  })

  it('is a 400 in query strings and on routes for players too', async () => {
    const user = await registeredUser(t.app)
    const bio = await send(user.agent, 'PUT', '/api/account/update', '{"bio":"\\ud800"}')
    expect(bio.statusCode).toBe(400)
    expect(bio.json().title).toContain('bio')
    const search = await admin.post('/api/admin/users/search?hint=a%00b')
    expect(search.statusCode).toBe(400)
    expect(search.json().title).toContain('hint')
  })

  it('is a 400 in an uploaded file’s name', async () => {
    const res = await admin.upload(
      'POST',
      '/api/assets',
      { bytes: Buffer.from('hello'), name: 'a\u0000b.txt', type: 'text/plain' },
      'files',
    )
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json().title).toContain('filename')
  })
})
