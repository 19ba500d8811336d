import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { negotiate } from '../../src/http/compression.ts'
import { acceptedPlayer, adminAgent, createGame, eventually, staticChallenge } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const decode = (coding: string | undefined, body: Buffer) =>
  coding === 'br' ? brotliDecompressSync(body) : coding === 'gzip' ? gunzipSync(body) : body

describe('choosing a coding', () => {
  it('follows Accept-Encoding: weights, refusals, wildcards; Brotli first at equal weight', () => {
    expect(negotiate(undefined)).toBe(null)
    expect(negotiate('')).toBe(null)
    expect(negotiate('identity')).toBe(null)
    expect(negotiate('gzip')).toBe('gzip')
    expect(negotiate('br')).toBe('br')
    expect(negotiate('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiate('br;q=0.5, gzip')).toBe('gzip')
    expect(negotiate('br;q=0, gzip;q=0')).toBe(null)
    expect(negotiate('br;q=0, *')).toBe('gzip')
    expect(negotiate('*')).toBe('br')
    expect(negotiate('*;q=0, identity')).toBe(null)
    expect(negotiate('GZIP;Q=1, BR;Q=0.9')).toBe('gzip')
    expect(negotiate('x-gzip')).toBe('gzip')
    expect(negotiate('br;q=nonsense, gzip;q=0.1')).toBe('gzip')
  })
})

describe('JSON answers', () => {
  // The OpenAPI document: a JSON body far above the threshold.
  const big = '/openapi/v1.json'

  it('are compressed as Accept-Encoding asks, and decode to the plain body', async () => {
    const agent = new Agent(t.app)
    const plain = await agent.get(big)
    expect(plain.statusCode).toBe(200)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i)
    for (const [header, coding] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['gzip, deflate, br', 'br'],
      ['br;q=0, gzip', 'gzip'],
    ] as const) {
      const res = await agent.get(big, { 'accept-encoding': header })
      expect(res.headers['content-encoding'], header).toBe(coding)
      expect(res.headers.vary).toMatch(/Accept-Encoding/i)
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3)
      expect(decode(coding, res.rawPayload).equals(plain.rawPayload)).toBe(true)
    }
    for (const header of ['identity', 'br;q=0, gzip;q=0', 'deflate']) {
      const res = await agent.get(big, { 'accept-encoding': header })
      expect(res.headers['content-encoding'], header).toBeUndefined()
      expect(res.rawPayload.equals(plain.rawPayload)).toBe(true)
    }
  })

  it('of an API route are compressed, and their 304 names the same Vary', async () => {
    for (let i = 0; i < 3; i++) {
      const created = await admin.post('/api/edit/posts', {
        title: `Long news ${i}`,
        summary: 'A summary that repeats itself. '.repeat(20),
        content: 'Body.',
      })
      expect(created.statusCode).toBe(200)
    }
    const agent = new Agent(t.app)
    const plain = await agent.get('/api/posts')
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    const res = await agent.get('/api/posts', { 'accept-encoding': 'gzip' })
    expect(res.headers['content-encoding']).toBe('gzip')
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toEqual(plain.json())
    const again = await agent.get('/api/posts', {
      'accept-encoding': 'gzip',
      'if-none-match': String(res.headers.etag),
    })
    expect(again.statusCode).toBe(304)
    expect(again.headers.vary).toMatch(/Accept-Encoding/i)
  })

  it('below 1 KiB go out as they are', async () => {
    const res = await new Agent(t.app).get('/api/config', { 'accept-encoding': 'br, gzip' })
    expect(res.statusCode).toBe(200)
    expect(res.rawPayload.length).toBeLessThan(1024)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.json()).toHaveProperty('title')
  })

  it('errors are JSON like any answer, and small ones are not compressed', async () => {
    const res = await new Agent(t.app).get('/api/no/such/route', { 'accept-encoding': 'br' })
    expect(res.statusCode).toBe(404)
    expect(res.headers['content-encoding']).toBeUndefined()
    expect(res.json()).toEqual({ title: 'There is no such API route', status: 404 })
  })

  it('pictures are never compressed again', async () => {
    const res = await new Agent(t.app).get('/favicon.webp', { 'accept-encoding': 'br, gzip' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    expect(res.headers['content-encoding']).toBeUndefined()
  })
})

describe('the scoreboard', () => {
  it('is compressed once per version, decodes to the plain board exactly, and keeps its ETag/304', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{zip}')
    await staticChallenge(admin, game.id, 'flag{other}')
    const players: Awaited<ReturnType<typeof acceptedPlayer>>[] = []
    for (let i = 0; i < 5; i++) players.push(await acceptedPlayer(t.app, admin, game.id))
    const url = `/api/game/${game.id}/scoreboard`
    const reader = new Agent(t.app)
    const plain = await reader.get(url)
    expect(plain.statusCode).toBe(200)
    expect(plain.rawPayload.length).toBeGreaterThan(1024)
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.headers.vary).toMatch(/Accept-Encoding/i)
    const etag = String(plain.headers.etag)

    for (const coding of ['br', 'gzip']) {
      const res = await reader.get(url, { 'accept-encoding': coding })
      expect(res.statusCode).toBe(200)
      expect(res.headers['content-encoding']).toBe(coding)
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8')
      expect(res.headers.vary).toMatch(/Accept-Encoding/i)
      // The same board: the same (weak) tag, and byte for byte the plain body once decoded.
      expect(res.headers.etag).toBe(etag)
      expect(decode(coding, res.rawPayload).equals(plain.rawPayload)).toBe(true)
      const cached = await reader.get(url, { 'accept-encoding': coding, 'if-none-match': etag })
      expect(cached.statusCode).toBe(304)
      expect(cached.rawPayload.length).toBe(0)
      expect(cached.headers.vary).toMatch(/Accept-Encoding/i)
    }

    // Every reader of this version gets the bytes compressed once, not per request.
    const entry = await t.app.deps.services.scoreboard.get(game.id)
    expect(entry.etag).toBe(etag.slice(3, -1))
    expect(entry.encoded('br')).toBe(entry.encoded('br'))
    const again = await new Agent(t.app).get(url, { 'accept-encoding': 'br' })
    expect(again.rawPayload.equals(await entry.encoded('br'))).toBe(true)

    // A solve makes a new version: a new tag, the old one no longer matches, and the
    // compressed board of the new version decodes to its plain board.
    const solved = await players[0]!.agent.post(`/api/game/${game.id}/challenges/${c.id}`, {
      flag: 'flag{zip}',
    })
    expect(solved.statusCode).toBe(200)
    const next = await eventually(async () => {
      const res = await reader.get(url, { 'accept-encoding': 'br', 'if-none-match': etag })
      expect(res.statusCode).toBe(200)
      return res
    })
    expect(next.headers.etag).not.toBe(etag)
    const nextPlain = await reader.get(url)
    expect(nextPlain.headers.etag).toBe(next.headers.etag)
    expect(brotliDecompressSync(next.rawPayload).equals(nextPlain.rawPayload)).toBe(true)
    const board = JSON.parse(nextPlain.body)
    expect(board.items.find((x: { id: number }) => x.id === players[0]!.teamId).solvedCount).toBe(1)
  })
})
