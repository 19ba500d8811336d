import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { adminAgent, createGame, registeredUser, setRole } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const HOUR = 3600_000

describe('POST /api/edit/games', () => {
  it('creates a game from title and times with the contract defaults', async () => {
    const start = Date.now() + HOUR
    const end = start + 2 * HOUR
    const res = await admin.post('/api/edit/games', { title: 'Autumn CTF', start, end })
    expect(res.statusCode).toBe(200)
    const game = res.json()
    expect(game).toEqual({
      id: expect.any(Number),
      title: 'Autumn CTF',
      hidden: false,
      summary: '',
      content: '',
      acceptWithoutReview: false,
      writeupRequired: false,
      inviteCode: null,
      divisions: [],
      teamMemberCountLimit: 0,
      containerCountLimit: 3,
      poster: null,
      publicKey: expect.stringMatching(/^[A-Za-z0-9+/]{43}=$/),
      practiceMode: true,
      start,
      end,
      writeupDeadline: expect.any(Number),
      writeupNote: '',
      bloodBonus: 52459530,
      // Pennant's scoreboard freeze (extra fields of the game model): none by default.
      freezeAt: null,
      revealAt: null,
    })
  })

  it('accepts ISO-8601 times and falls back to the default for an invalid blood bonus', async () => {
    const res = await admin.post('/api/edit/games', {
      title: 'ISO',
      start: '2030-01-01T10:00:00Z',
      end: '2030-01-02T10:00:00.000+02:00',
      bloodBonus: (1001 << 20) | 5,
    })
    expect(res.json()).toMatchObject({
      start: Date.parse('2030-01-01T10:00:00Z'),
      end: Date.parse('2030-01-02T08:00:00Z'),
      bloodBonus: 52459530,
    })
  })

  it.each([
    [{ start: 1, end: 2 }, 'title is required'],
    [{ title: '  ', start: 1, end: 2 }, 'title must not be blank'],
    [{ title: 'x', start: 'soon', end: 2 }, 'start must be integer'],
    [{ title: 'x', start: 10, end: 5 }, 'The game must end after it starts'],
    [
      { title: 'x', start: 1, end: 2, inviteCode: 'x'.repeat(33) },
      'inviteCode must NOT have more than 32 characters',
    ],
    [{ title: 'x', start: 1, end: 2, teamMemberCountLimit: -1 }, 'teamMemberCountLimit must be >= 0'],
    [{ title: 'x', start: 1, end: 2, divisions: ['a', 'a'] }, /divisions must NOT have duplicate items/],
  ])('rejects %j', async (body, title) => {
    const res = await admin.post('/api/edit/games', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toMatch(title)
  })

  it('is for admins only: 401 anonymous, 403 for users and monitors', async () => {
    const body = { title: 'x', start: 1, end: 2 }
    expect((await new Agent(t.app).post('/api/edit/games', body)).statusCode).toBe(401)
    const user = await registeredUser(t.app)
    expect((await user.agent.post('/api/edit/games', body)).statusCode).toBe(403)
    await setRole(t.app, user.userName, 2)
    expect((await user.agent.post('/api/edit/games', body)).statusCode).toBe(403)
    expect((await user.agent.get('/api/edit/games?count=10')).statusCode).toBe(403)
  })
})

describe('GET /api/edit/games', () => {
  it('pages newest first with the total, and an absent count gives an empty page', async () => {
    const a = await createGame(admin)
    const b = await createGame(admin)
    const page = (await admin.get('/api/edit/games?count=2&skip=0')).json()
    expect(page.data.map((g: { id: number }) => g.id)).toEqual([b.id, a.id])
    expect(page.length).toBe(2)
    expect(page.total).toBeGreaterThanOrEqual(2)
    expect((await admin.get('/api/edit/games')).json()).toMatchObject({ data: [], length: 0 })
    expect((await admin.get('/api/edit/games?count=101')).statusCode).toBe(400)
    expect((await admin.get('/api/edit/games?count=abc')).statusCode).toBe(400)
  })
})

describe('PUT /api/edit/games/{id}', () => {
  it('changes what is sent, keeps what is not, and clears the invite code with null', async () => {
    const game = await createGame(admin, {
      inviteCode: 'secret',
      divisions: ['Open', 'Student'],
      summary: 'old',
    })
    const res = await admin.put(`/api/edit/games/${game.id}`, {
      title: 'Renamed',
      start: game.start,
      end: game.end,
      hidden: true,
      practiceMode: false,
      inviteCode: null,
      bloodBonus: 0,
      content: '# Rules',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      title: 'Renamed',
      hidden: true,
      practiceMode: false,
      inviteCode: null,
      bloodBonus: 0,
      summary: 'old',
      content: '# Rules',
      divisions: ['Open', 'Student'],
      publicKey: game.publicKey,
    })
    expect((await admin.get(`/api/edit/games/${game.id}`)).json().title).toBe('Renamed')
  })

  it('answers 404 for a missing game and 400 for a malformed id', async () => {
    const body = { title: 'x', start: 1, end: 2 }
    expect((await admin.put('/api/edit/games/999999', body)).json()).toEqual({
      title: 'Game not found',
      status: 404,
    })
    expect((await admin.get('/api/edit/games/abc')).statusCode).toBe(400)
    expect((await admin.get('/api/edit/games/0')).statusCode).toBe(400)
  })
})

describe('poster, hash salt, delete', () => {
  it('stores the poster as WebP and exposes it on the game', async () => {
    const game = await createGame(admin)
    const png = await sharp({ create: { width: 800, height: 450, channels: 3, background: '#224488' } })
      .png()
      .toBuffer()
    const res = await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, {
      bytes: png,
      name: 'p.png',
      type: 'image/png',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatch(/^\/assets\/[0-9a-f]{64}\/poster\.webp$/)
    const poster = (await admin.get(`/api/edit/games/${game.id}`)).json().poster
    expect(poster).toBe(res.json().replace('.webp', ''))
    const file = await new Agent(t.app).get(poster)
    expect(file.headers['content-type']).toBe('image/webp')
  })

  it('gives the team-hash salt as a JSON string', async () => {
    const game = await createGame(admin)
    const res = await admin.get(`/api/edit/games/${game.id}/hashsalt`)
    expect(res.headers['content-type']).toMatch(/application\/json/)
    expect(res.json()).toMatch(/^[0-9a-f]{64}$/)
  })

  it('deletes a game with its challenges and frees its poster', async () => {
    const game = await createGame(admin)
    const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer()
    const posterUrl = (
      await admin.upload('PUT', `/api/edit/games/${game.id}/poster`, {
        bytes: png,
        name: 'p.png',
        type: 'image/png',
      })
    ).json()
    await admin.post(`/api/edit/games/${game.id}/challenges`, { title: 'c1' })
    expect((await admin.delete(`/api/edit/games/${game.id}`)).statusCode).toBe(200)
    expect((await admin.get(`/api/edit/games/${game.id}`)).statusCode).toBe(404)
    expect((await admin.get(`/api/edit/games/${game.id}/challenges`)).json()).toEqual([])
    expect((await new Agent(t.app).get(posterUrl)).statusCode).toBe(404)
    expect((await admin.delete(`/api/edit/games/${game.id}`)).statusCode).toBe(404)
  })

  it('deletes all writeups of a game', async () => {
    const game = await createGame(admin)
    expect((await admin.delete(`/api/edit/games/${game.id}/writeups`)).statusCode).toBe(200)
    expect((await admin.delete('/api/edit/games/999999/writeups')).statusCode).toBe(404)
  })
})
