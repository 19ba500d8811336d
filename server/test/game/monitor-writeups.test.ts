import { gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  registeredUser,
  setRole,
  staticChallenge,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { unzip } from '../helpers/unzip.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const pdf = (text = 'writeup') => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`)

describe('monitor routes', () => {
  it('keep hidden games from monitors: 404, as for everyone but admins', async () => {
    const game = await createGame(admin, { hidden: true })
    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    for (const route of ['events', 'submissions', 'cheatinfo', 'scoreboardsheet', 'submissionsheet']) {
      const url = `/api/game/${game.id}/${route}`
      expect((await monitor.agent.get(url)).statusCode, url).toBe(404)
      expect((await admin.get(url)).statusCode, url).toBe(200)
    }
  })

  it('show events, submissions and cheat reports to monitors, newest first', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{m}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'nope' })
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{m}' })
    await t.app.deps.services.judge.drain()

    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    const subs = (await monitor.agent.get(`/api/game/${game.id}/submissions`)).json()
    expect(subs.map((s: { answer: string; status: string }) => [s.answer, s.status])).toEqual([
      ['flag{m}', 'Accepted'],
      ['nope', 'WrongAnswer'],
    ])
    expect(subs[0]).toMatchObject({ user: player.userName, challenge: c.title, time: expect.any(Number) })
    const wrong = (await monitor.agent.get(`/api/game/${game.id}/submissions?type=WrongAnswer`)).json()
    expect(wrong).toHaveLength(1)
    expect((await monitor.agent.get(`/api/game/${game.id}/submissions?count=1`)).json()).toHaveLength(1)

    const events = (await monitor.agent.get(`/api/game/${game.id}/events`)).json()
    expect(events[0]).toMatchObject({
      type: 'FlagSubmit',
      values: ['Accepted', 'flag{m}', c.title, String(c.id)],
      user: player.userName,
    })
    expect((await monitor.agent.get(`/api/game/${game.id}/cheatinfo`)).json()).toEqual([])
  })

  it('are refused to players and before the start', async () => {
    const game = await createGame(admin, { start: Date.now() + 3600_000, end: Date.now() + 7200_000 })
    const { agent } = await registeredUser(t.app)
    expect((await agent.get(`/api/game/${game.id}/events`)).statusCode).toBe(403)
    expect((await admin.get(`/api/game/${game.id}/events`)).json()).toEqual({
      title: 'The game has not started yet',
      status: 10001,
    })
    expect((await admin.get('/api/game/999999/submissions')).statusCode).toBe(404)
    expect((await admin.get('/api/game/1/submissions?type=Bogus')).statusCode).toBe(400)
  })
})

describe('writeups', () => {
  it('takes a PDF from an accepted team, replaces it, lists and archives it for admins', async () => {
    const game = await createGame(admin, {
      writeupRequired: true,
      writeupDeadline: Date.now() + 3600_000,
      writeupNote: 'PDF only',
    })
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await player.agent.get(`/api/game/${game.id}/writeup`)).json()).toEqual({
      submitted: false,
      name: '#',
      fileSize: 0,
      note: 'PDF only',
    })
    const up = (text: string) =>
      player.agent.upload('POST', `/api/game/${game.id}/writeup`, {
        bytes: pdf(text),
        name: 'ours.pdf',
        type: 'application/pdf',
      })
    expect((await up('first')).statusCode).toBe(200)
    expect((await up('second')).statusCode).toBe(200)
    const info = (await player.agent.get(`/api/game/${game.id}/writeup`)).json()
    expect(info).toMatchObject({
      submitted: true,
      name: expect.stringMatching(
        new RegExp(`^Writeup-${game.id}-${player.teamId}-\\d{8}-\\d\\d\\.\\d\\d\\.\\d\\dZ\\.pdf$`),
      ),
    })

    const list = (await admin.get(`/api/admin/writeups/${game.id}`)).json()
    expect(list).toEqual([
      {
        id: expect.any(Number),
        team: expect.objectContaining({ id: player.teamId, members: null }),
        url: expect.stringMatching(/^\/assets\//),
        uploadTimeUtc: expect.any(Number),
      },
    ])
    expect((await new Agent(t.app).get(list[0].url)).rawPayload.toString()).toContain('second')

    const archive = await admin.get(`/api/admin/writeups/${game.id}/all`)
    expect(archive.headers['content-type']).toBe('application/gzip')
    expect(archive.headers['content-disposition']).toMatch(/filename\*=UTF-8''Writeups-/)
    const tar = gunzipSync(archive.rawPayload)
    expect(tar.length % 512).toBe(0)
    expect(tar.toString('latin1')).toContain('% second')
    expect(tar.subarray(257, 262).toString()).toBe('ustar')

    await admin.delete(`/api/edit/games/${game.id}/writeups`)
    expect((await admin.get(`/api/admin/writeups/${game.id}`)).json()).toEqual([])
    expect((await new Agent(t.app).get(list[0].url)).statusCode).toBe(404)
  })

  it('refuses non-PDFs, games without writeups, late writeups and strangers', async () => {
    const game = await createGame(admin, { writeupRequired: true, writeupDeadline: Date.now() + 3600_000 })
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/writeup`
    expect(
      (
        await player.agent.upload('POST', url, { bytes: pdf(), name: 'x.txt', type: 'application/pdf' })
      ).json().title,
    ).toBe('Writeups must be PDF files')
    expect(
      (
        await player.agent.upload('POST', url, {
          bytes: Buffer.from('not a pdf'),
          name: 'x.pdf',
          type: 'application/pdf',
        })
      ).json().title,
    ).toBe('Writeups must be PDF files')
    expect(
      (
        await player.agent.upload('POST', url, {
          bytes: Buffer.alloc(0),
          name: 'x.pdf',
          type: 'application/pdf',
        })
      ).json().title,
    ).toBe('The file is empty')
    const stranger = await registeredUser(t.app)
    expect(
      (
        await stranger.agent.upload('POST', url, { bytes: pdf(), name: 'x.pdf', type: 'application/pdf' })
      ).json().title,
    ).toBe('Your team has not joined this game')

    const closed = await createGame(admin, { writeupRequired: true, writeupDeadline: Date.now() - 1000 })
    const late = await acceptedPlayer(t.app, admin, closed.id)
    expect(
      (
        await late.agent.upload('POST', `/api/game/${closed.id}/writeup`, {
          bytes: pdf(),
          name: 'x.pdf',
          type: 'application/pdf',
        })
      ).json().title,
    ).toBe('The writeup deadline has passed')
    const none = await createGame(admin)
    const p3 = await acceptedPlayer(t.app, admin, none.id)
    expect(
      (
        await p3.agent.upload('POST', `/api/game/${none.id}/writeup`, {
          bytes: pdf(),
          name: 'x.pdf',
          type: 'application/pdf',
        })
      ).json().title,
    ).toBe('This game does not take writeups')
    expect((await player.agent.get(`/api/admin/writeups/${game.id}`)).statusCode).toBe(403)
  })
})

describe('spreadsheets', () => {
  it('export the scoreboard with contacts and every submission as .xlsx', async () => {
    const game = await createGame(admin, { title: 'Sheet Game' })
    const c = await staticChallenge(admin, game.id, 'flag{x}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: '=1+1' })
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{x}' })
    await t.app.deps.services.judge.drain()
    // Past the board's longest coalescing wait: the solve is on it.
    t.clock.advance(800)

    const board = await admin.get(`/api/game/${game.id}/scoreboardsheet`)
    expect(board.headers['content-type']).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    )
    expect(board.headers['content-disposition']).toMatch(/filename\*=UTF-8''Sheet%20Game-Scoreboard-\d{8}-/)
    const sheet = unzip(board.rawPayload)['xl/worksheets/sheet1.xml']!
    expect(sheet).toContain(`>${player.userName}<`)
    expect(sheet).toContain(`>${player.email}<`)
    expect(sheet).toContain(`>${c.title}<`)
    expect(sheet).toContain('<v>1050</v>')

    const subs = await admin.get(`/api/game/${game.id}/submissionsheet`)
    const rows = unzip(subs.rawPayload)['xl/worksheets/sheet1.xml']!
    expect(rows).toContain('>=1+1<')
    expect(rows).toContain('>WrongAnswer<')
    expect(rows).toContain('>Accepted<')
    const { agent } = await registeredUser(t.app)
    expect((await agent.get(`/api/game/${game.id}/submissionsheet`)).statusCode).toBe(403)
  })
})
