import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { brotliCompressSync, gunzipSync, gzipSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let webDir: string
beforeAll(async () => {
  webDir = await mkdtemp(path.join(tmpdir(), 'pennant-web-'))
  await mkdir(path.join(webDir, 'static'))
  await writeFile(
    path.join(webDir, 'index.html'),
    '<!doctype html><title>Pennant</title><div id="root"></div>',
  )
  await writeFile(path.join(webDir, 'static', 'core.abc123.js'), 'console.log(1)')
  // As web/scripts/compress.mjs leaves them.
  await writeFile(path.join(webDir, 'static', 'core.abc123.js.br'), brotliCompressSync('console.log(1)'))
  await writeFile(path.join(webDir, 'static', 'core.abc123.js.gz'), gzipSync('console.log(1)'))
  t = await createTestApp({ WEB_DIR: webDir })
})
afterAll(async () => {
  await t.close()
  await rm(webDir, { recursive: true, force: true })
})

describe('the built web client', () => {
  it.each([
    '/',
    '/account/verify?token=x&email=y',
    '/games/3/Scoreboard',
    '/admin/games/1/challenges/2/flags',
    '/static/',
  ])('answers the client route %s with the page', async (url) => {
    const res = await new Agent(t.app).get(url)
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/html/)
    expect(res.body).toContain('<div id="root">')
  })

  it('sends the precompressed copy the browser accepts, and the plain file otherwise', async () => {
    const br = await new Agent(t.app).get('/static/core.abc123.js', {
      'accept-encoding': 'gzip, deflate, br',
    })
    expect(br.headers['content-encoding']).toBe('br')
    expect(br.headers['content-type']).toMatch(/javascript/)
    expect(br.headers.vary).toMatch(/accept-encoding/i)
    const gz = await new Agent(t.app).get('/static/core.abc123.js', { 'accept-encoding': 'gzip' })
    expect(gz.headers['content-encoding']).toBe('gzip')
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)')
    const plain = await new Agent(t.app).get('/static/core.abc123.js', { 'accept-encoding': 'identity' })
    expect(plain.headers['content-encoding']).toBeUndefined()
    expect(plain.body).toBe('console.log(1)')
  })

  it('serves hashed files for a year', async () => {
    const res = await new Agent(t.app).get('/static/core.abc123.js')
    expect(res.statusCode, res.body).toBe(200)
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable')
  })

  it('keeps API paths JSON, never the page', async () => {
    const res = await new Agent(t.app).get('/api/no/such/route')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toEqual({ title: expect.any(String), status: 404 })
  })

  it('answers a file that is not there with 404, and one added after the start with the file', async () => {
    const missing = await new Agent(t.app).get('/static/core.gone999.js')
    expect(missing.statusCode).toBe(404)
    expect(missing.headers['content-type']).not.toMatch(/^text\/html/)
    // A web client rebuilt while the server runs: its new files are served without a restart.
    await writeFile(path.join(webDir, 'static', 'core.new456.js'), 'console.log(2)')
    const added = await new Agent(t.app).get('/static/core.new456.js', { 'accept-encoding': 'identity' })
    expect(added.statusCode).toBe(200)
    expect(added.body).toBe('console.log(2)')
  })

  it('never serves a file from outside its folder', async () => {
    const res = await new Agent(t.app).get('/static/../../../../etc/passwd')
    expect(res.body).not.toContain('root:')
  })
})
