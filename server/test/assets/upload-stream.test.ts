import { createHash } from 'node:crypto'
import { readdir, rm, writeFile } from 'node:fs/promises'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import path from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { files } from '../../src/db/schema.ts'
import { adminAgent, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

// A full collection on demand, so the memory check sees what is held, not garbage not yet swept.
setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

const MiB = 1024 * 1024
let t: TestApp
let admin: Agent
let base: string
let stagingDir: string
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
  await t.app.listen({ port: 0, host: '127.0.0.1' })
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
  stagingDir = path.join(t.dataDir, 'files', 'uploads', 'staging')
})
afterAll(() => t.close())

interface Part {
  field: string
  name: string
  /** Bytes, or a size for generated content (made chunk by chunk, never held whole). */
  bytes?: Buffer
  size?: number
}

/** 1 MiB of distinct 64 KiB chunks, cycled through to make large files without holding them. */
const CHUNKS = Array.from({ length: 16 }, (_, i) => Buffer.alloc(64 * 1024, i * 16 + 1))

function* contentOf(part: Part): Generator<Buffer> {
  if (part.bytes) {
    yield part.bytes
    return
  }
  let left = part.size ?? 0
  for (let i = 0; left > 0; i++) {
    const chunk = CHUNKS[i % CHUNKS.length]!
    const piece = left >= chunk.length ? chunk : chunk.subarray(0, left)
    left -= piece.length
    yield piece
  }
}

function sha256(part: Part): string {
  const hash = createHash('sha256')
  for (const chunk of contentOf(part)) hash.update(chunk)
  return hash.digest('hex')
}

/**
 * `POST /api/assets` over a real connection, the body streamed as it is made. With `probeAt`,
 * sending pauses once that many bytes of the first file are out, and the server's (same
 * process) array-buffer memory is measured after a full collection: what it holds of the file.
 */
async function streamUpload(parts: Part[], query = '', probeAt?: number) {
  const boundary = `----pennant${Math.random().toString(16).slice(2)}`
  gc()
  const baseline = process.memoryUsage().arrayBuffers
  let held: number | undefined
  const xsrf = admin.cookies.get('XSRF-TOKEN')!
  return await new Promise<{ status: number; body: string; held?: number }>((resolve, reject) => {
    const req = http.request(`${base}/api/assets${query}`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        cookie: [...admin.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': xsrf,
      },
    })
    let answered = false
    req.on('response', (res) => {
      answered = true
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (c: string) => {
        body += c
      })
      res.on('end', () => resolve({ status: res.statusCode!, body, held }))
    })
    // The server may answer (and stop reading) before an over-long body is all sent.
    req.on('error', (err) => {
      if (!answered) reject(err)
    })
    const write = (chunk: Buffer | string) =>
      req.write(chunk) ? Promise.resolve() : new Promise<void>((r) => req.once('drain', () => r()))
    void (async () => {
      for (const part of parts) {
        await write(
          `--${boundary}\r\nContent-Disposition: form-data; name="${part.field}"; filename="${part.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
        )
        let sent = 0
        for (const chunk of contentOf(part)) {
          if (answered || req.destroyed) return
          await write(chunk)
          sent += chunk.length
          if (probeAt !== undefined && held === undefined && sent >= probeAt) {
            // Give the server a moment to take in what is on the wire, then look; on a busy
            // machine it may still be working through what was in flight, so the least of a
            // few looks counts (a server buffering the file would hold it at every look).
            for (let look = 0; look < 6; look++) {
              // real wait: a real upload in flight, its memory looked at over time
              await new Promise((r) => setTimeout(r, 300))
              gc()
              const now = process.memoryUsage().arrayBuffers - baseline
              held = held === undefined ? now : Math.min(held, now)
              if (held < 4 * MiB) break
            }
          }
        }
        await write('\r\n')
      }
      req.end(`--${boundary}--\r\n`)
    })().catch(() => {})
  })
}

const fileRow = async (hash: string) =>
  (await t.app.deps.db.select().from(files).where(eq(files.hash, hash)))[0]
const staged = async () => readdir(stagingDir).catch(() => [] as string[])

describe('POST /api/assets (streamed to storage)', () => {
  it('is for admins only: anonymous 401, user 403', async () => {
    const { agent: user } = await registeredUser(t.app)
    const file = { bytes: Buffer.from('hello'), name: 'a.txt', type: 'text/plain' }
    const anon = await new Agent(t.app).upload('POST', '/api/assets', file, 'files')
    expect(anon.statusCode).toBe(401)
    expect(anon.json()).toEqual({ title: expect.any(String), status: 401 })
    const denied = await user.upload('POST', '/api/assets', file, 'files')
    expect(denied.statusCode).toBe(403)
    expect(denied.json()).toEqual({ title: expect.any(String), status: 403 })
  })

  it('stores every file of the "files" field, skipping empty ones and other fields', async () => {
    const a: Part = { field: 'files', name: 'dir/a.txt', bytes: Buffer.from('first file') }
    const b: Part = { field: 'files', name: 'b.bin', size: 300 * 1024 }
    const parts = [a, { field: 'files', name: 'empty.txt', bytes: Buffer.alloc(0) }, b]
    const res = await streamUpload([...parts, { field: 'other', name: 'x.txt', bytes: Buffer.from('x') }])
    expect(res.status, res.body).toBe(200)
    expect(JSON.parse(res.body)).toEqual([
      { hash: sha256(a), name: 'a.txt' },
      { hash: sha256(b), name: 'b.bin' },
    ])
    const download = await new Agent(t.app).get(`/assets/${sha256(b)}/b.bin`)
    expect(download.rawPayload.equals(Buffer.concat([...contentOf(b)]))).toBe(true)
    expect(await fileRow(sha256(a))).toMatchObject({ name: 'a.txt', fileSize: 10, referenceCount: 1 })
    expect(await staged()).toEqual([])
  })

  it('applies ?filename= to every file and counts a second copy as a reference', async () => {
    const a: Part = { field: 'files', name: 'one.txt', bytes: Buffer.from('same name for all') }
    const b: Part = { field: 'files', name: 'two.txt', bytes: Buffer.from('another') }
    const res = await streamUpload([a, b, a], '?filename=renamed.txt')
    expect(res.status, res.body).toBe(200)
    expect(JSON.parse(res.body).map((f: { name: string }) => f.name)).toEqual([
      'renamed.txt',
      'renamed.txt',
      'renamed.txt',
    ])
    expect(await fileRow(sha256(a))).toMatchObject({ name: 'renamed.txt', referenceCount: 2 })
  })

  it('takes a 40 MiB file without holding it in memory', async () => {
    const big: Part = { field: 'files', name: 'big.bin', size: 40 * MiB }
    const res = await streamUpload([big], '', 32 * MiB)
    expect(res.status, res.body).toBe(200)
    expect(JSON.parse(res.body)).toEqual([{ hash: sha256(big), name: 'big.bin' }])
    expect(await fileRow(sha256(big))).toMatchObject({ fileSize: 40 * MiB })
    // Buffered, the server would hold the 32 MiB sent so far; streamed, a few chunks at most.
    expect(res.held).toBeLessThan(8 * MiB)
    expect(await staged()).toEqual([])
  })

  it('refuses a file over 64 MiB with a 400 and keeps nothing of it', async () => {
    const before = await t.app.deps.db.select().from(files)
    const huge: Part = { field: 'files', name: 'huge.bin', size: 64 * MiB + 1 }
    const res = await streamUpload([huge])
    expect(res.status, res.body).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ title: 'The file is too large', status: 400 })
    expect(await t.app.deps.db.select().from(files)).toHaveLength(before.length)
    expect(await staged()).toEqual([])
    // The server still answers on new connections.
    expect((await fetch(`${base}/api/config`)).status).toBe(200)
  })

  it.each([
    ['only empty files', [{ field: 'files', name: 'e.txt', bytes: Buffer.alloc(0) }]],
    ['no file in "files"', [{ field: 'file', name: 'a.txt', bytes: Buffer.from('wrong field') }]],
    ['no parts at all', []],
  ])('answers 400 to %s', async (_what, parts: Part[]) => {
    const res = await streamUpload(parts)
    expect(res.status, res.body).toBe(400)
    expect(JSON.parse(res.body)).toEqual({ title: expect.any(String), status: 400 })
  })

  it('answers 4xx, never 500, to a body that is not multipart', async () => {
    for (const res of [
      await admin.post('/api/assets', { files: ['x'] }),
      await admin.request({ method: 'POST', url: '/api/assets' }),
      await admin.request({
        method: 'POST',
        url: '/api/assets',
        payload: 'files=x',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      }),
      await admin.request({
        method: 'POST',
        url: '/api/assets',
        payload: '--x\r\nContent-Disposition: form-data; name="files"; filename="a"\r\n\r\nabc',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
    ]) {
      expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400)
      expect(res.statusCode, res.body).toBeLessThan(500)
      expect(res.json()).toEqual({ title: expect.any(String), status: res.statusCode })
    }
  })

  it('answers 400 Assets_IOError when storage fails', async () => {
    // A file where the staging folder should be: every write fails as on a broken disk.
    await rm(stagingDir, { recursive: true, force: true })
    await writeFile(stagingDir, 'not a folder')
    try {
      const res = await admin.upload(
        'POST',
        '/api/assets',
        { bytes: Buffer.from('cannot be stored'), name: 'a.txt', type: 'text/plain' },
        'files',
      )
      expect(res.statusCode, res.body).toBe(400)
      expect(res.json()).toEqual({ title: 'The file could not be stored; try again', status: 400 })
    } finally {
      await rm(stagingDir, { force: true })
    }
  })
})
