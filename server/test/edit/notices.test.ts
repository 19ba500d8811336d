import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, createChallenge, createGame, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const url = (gameId: number, id?: number) => `/api/edit/games/${gameId}/notices${id ? `/${id}` : ''}`

describe('game notices', () => {
  it('posts, lists, edits and deletes organiser notices', async () => {
    const game = await createGame(admin)
    const posted = await admin.post(url(game.id), { content: 'Challenge servers restart at 14:00' })
    expect(posted.json()).toEqual({
      id: expect.any(Number),
      time: expect.any(Number),
      type: 'Normal',
      values: ['Challenge servers restart at 14:00'],
    })
    const id = posted.json().id
    const edited = await admin.put(url(game.id, id), { content: 'at 15:00' })
    expect(edited.json()).toMatchObject({ id, type: 'Normal', values: ['at 15:00'] })
    expect((await admin.get(url(game.id))).json()).toEqual([edited.json()])
    expect((await admin.delete(url(game.id, id))).statusCode).toBe(200)
    expect((await admin.get(url(game.id))).json()).toEqual([])
    expect((await admin.delete(url(game.id, id))).json()).toEqual({ title: 'Notice not found', status: 404 })
  })

  it('lists only organiser notices and refuses to edit or delete the platform’s', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    await admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag: 'f' }])
    await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, { isEnabled: true })
    expect((await admin.get(url(game.id))).json()).toEqual([])
    const { gameNotices } = await import('../../src/db/schema.ts')
    const [system] = await t.app.deps.db.select().from(gameNotices)
    expect((await admin.put(url(game.id, system!.id), { content: 'x' })).json().title).toBe(
      'Notices posted by the platform cannot be edited',
    )
    expect((await admin.delete(url(game.id, system!.id))).statusCode).toBe(400)
  })

  it('does not reach a notice through another game', async () => {
    const a = await createGame(admin)
    const b = await createGame(admin)
    const id = (await admin.post(url(a.id), { content: 'mine' })).json().id
    expect((await admin.put(url(b.id, id), { content: 'x' })).statusCode).toBe(404)
    expect((await admin.delete(url(b.id, id))).statusCode).toBe(404)
  })

  it('validates input and roles', async () => {
    const game = await createGame(admin)
    expect((await admin.post(url(game.id), { content: '  ' })).statusCode).toBe(400)
    expect((await admin.post(url(game.id), {})).statusCode).toBe(400)
    expect((await admin.post(url(999999), { content: 'x' })).statusCode).toBe(404)
    const { agent } = await registeredUser(t.app)
    expect((await agent.post(url(game.id), { content: 'x' })).statusCode).toBe(403)
    expect((await new Agent(t.app).get(url(game.id))).statusCode).toBe(401)
  })
})
