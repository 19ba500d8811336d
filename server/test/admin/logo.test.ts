import { readFile } from 'node:fs/promises'
import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { files, logs } from '../../src/db/schema.ts'
import { adminAgent, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const LOGO = '/api/admin/config/logo'
const DEFAULT_FAVICON = await readFile(new URL('../../assets/favicon.webp', import.meta.url))

/** A solid picture in the given format (built here, so the test needs no image files). */
const picture = (width: number, height: number, format: 'png' | 'gif' | 'jpeg' = 'png') =>
  sharp({ create: { width, height, channels: 3, background: { r: 200, g: 60, b: 40 } } })
    .toFormat(format)
    .toBuffer()

const upload = (agent: Agent, bytes: Buffer, opts: { name?: string; type?: string; field?: string } = {}) =>
  agent.upload(
    'POST',
    LOGO,
    { bytes, name: opts.name ?? 'logo.png', type: opts.type ?? 'image/png' },
    opts.field ?? 'file',
  )

const globalConfig = () => t.app.deps.services.settings.get().globalConfig
const fileRow = async (hash: string) =>
  (await t.app.deps.db.select().from(files).where(eq(files.hash, hash)))[0]
const stored = async (hash: string) => {
  const stream = await t.app.deps.infra.storage.open(hash)
  stream?.destroy()
  return stream !== null
}
const widthOf = async (bytes: Buffer) => (await sharp(bytes).metadata()).width
async function auditMessages() {
  await t.app.deps.services.audit.flush()
  return (await t.app.deps.db.select().from(logs)).map((l) => l.message)
}

describe('platform logo (/api/admin/config/logo)', () => {
  it('is for admins only: anonymous 401, user 403', async () => {
    const { agent: user } = await registeredUser(t.app)
    const png = await picture(32, 32)
    for (const [agent, status] of [
      [new Agent(t.app), 401],
      [user, 403],
    ] as const) {
      const up = await upload(agent, png)
      expect(up.statusCode).toBe(status)
      expect(up.json()).toEqual({ title: expect.any(String), status })
      const del = await agent.delete(LOGO)
      expect(del.statusCode).toBe(status)
    }
    expect(globalConfig().logoHash ?? '').toBe('')
  })

  it('serves the built-in favicon while there is no logo, with an ETag and 304', async () => {
    const res = await new Agent(t.app).get('/favicon.webp')
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toBe('image/webp')
    expect(res.rawPayload.equals(DEFAULT_FAVICON)).toBe(true)
    const etag = res.headers.etag as string
    expect(etag).toMatch(/^"favicon-[0-9a-f]{8}"$/)
    const again = await new Agent(t.app).get('/favicon.webp', { 'if-none-match': etag })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    expect((await new Agent(t.app).get('/api/config')).json().logoUrl).toBeNull()
  })

  it('stores a 640 px logo and a 256 px WebP favicon, reports and serves them', async () => {
    const res = await upload(admin, await picture(1200, 600))
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).toBe('')
    const { logoHash, faviconHash } = globalConfig()
    expect(logoHash).toMatch(/^[0-9a-f]{64}$/)
    expect(faviconHash).toMatch(/^[0-9a-f]{64}$/)

    const config = (await new Agent(t.app).get('/api/config')).json()
    expect(config.logoUrl).toBe(`/assets/${logoHash}/logo`)
    const logo = await new Agent(t.app).get(config.logoUrl)
    expect(logo.statusCode).toBe(200)
    expect(logo.headers['content-type']).toBe('image/webp')
    expect(await widthOf(logo.rawPayload)).toBe(640)

    const favicon = await new Agent(t.app).get('/favicon.webp')
    expect(favicon.statusCode).toBe(200)
    expect(favicon.headers['content-type']).toBe('image/webp')
    expect(favicon.headers.etag).toBe(`"favicon-${faviconHash!.slice(0, 8)}"`)
    expect((await sharp(favicon.rawPayload).metadata()).format).toBe('webp')
    expect(await widthOf(favicon.rawPayload)).toBe(256)
    const cached = await new Agent(t.app).get('/favicon.webp', {
      'if-none-match': favicon.headers.etag as string,
    })
    expect(cached.statusCode).toBe(304)

    expect(await auditMessages()).toContain('Admin uploaded a new platform logo')
  })

  it('replaces the previous logo and favicon blobs, and re-uploading the same picture keeps one reference', async () => {
    await upload(admin, await picture(800, 400))
    const before = { ...globalConfig() }
    const res = await upload(admin, await picture(900, 900, 'jpeg'))
    expect(res.statusCode, res.body).toBe(200)
    const after = globalConfig()
    expect(after.logoHash).not.toBe(before.logoHash)
    for (const hash of [before.logoHash!, before.faviconHash!]) {
      expect(await fileRow(hash)).toBeUndefined()
      expect(await stored(hash)).toBe(false)
    }

    const same = await picture(300, 200)
    await upload(admin, same)
    const first = { ...globalConfig() }
    await upload(admin, same)
    expect(globalConfig().logoHash).toBe(first.logoHash)
    expect((await fileRow(first.logoHash!))?.referenceCount).toBe(1)
    expect((await fileRow(first.faviconHash!))?.referenceCount).toBe(1)
  })

  it('keeps an animated GIF logo as it is but makes the favicon WebP', async () => {
    const gif = await picture(400, 100, 'gif')
    const res = await upload(admin, gif, { name: 'logo.gif', type: 'image/gif' })
    expect(res.statusCode, res.body).toBe(200)
    const { logoHash } = globalConfig()
    const logo = await new Agent(t.app).get(`/assets/${logoHash}/logo`)
    expect(logo.headers['content-type']).toBe('image/gif')
    const favicon = await new Agent(t.app).get('/favicon.webp')
    expect((await sharp(favicon.rawPayload).metadata()).format).toBe('webp')
  })

  it('is left alone by a settings save, whatever hashes the body carries', async () => {
    await upload(admin, await picture(120, 120))
    const { logoHash, faviconHash } = globalConfig()
    const res = await admin.put('/api/admin/config', {
      globalConfig: { title: 'Renamed', logoHash: 'f'.repeat(64), faviconHash: null },
    })
    expect(res.statusCode, res.body).toBe(200)
    expect(globalConfig()).toMatchObject({ title: 'Renamed', logoHash, faviconHash })
  })

  it.each([
    ['an empty file', async () => upload(admin, Buffer.alloc(0))],
    ['a file over 3 MiB', async () => upload(admin, Buffer.alloc(3 * 1024 * 1024 + 1, 1))],
    ['a file that is no picture', async () => upload(admin, Buffer.from('hello, not a picture'))],
    ['an SVG', async () => upload(admin, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))],
    ['the file in another field', async () => upload(admin, await picture(10, 10), { field: 'logo' })],
    ['a JSON body', async () => admin.post(LOGO, { file: 'x' })],
    ['no body at all', async () => admin.request({ method: 'POST', url: LOGO })],
    [
      'a broken multipart body',
      async () =>
        admin.request({
          method: 'POST',
          url: LOGO,
          payload: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc',
          headers: { 'content-type': 'multipart/form-data; boundary=x' },
        }),
    ],
  ])('refuses %s with a 400 and keeps the current logo', async (_what, send) => {
    await upload(admin, await picture(64, 64))
    const before = { ...globalConfig() }
    const res = await send()
    expect(res.statusCode, res.body).toBe(400)
    expect(res.json()).toEqual({ title: expect.any(String), status: 400 })
    expect(globalConfig()).toMatchObject({ logoHash: before.logoHash, faviconHash: before.faviconHash })
    expect(await stored(before.logoHash!)).toBe(true)
  })

  it('removes logo and favicon: hashes empty, blobs gone, default favicon back', async () => {
    await upload(admin, await picture(500, 250))
    const { logoHash, faviconHash } = globalConfig()
    const seen = await new Agent(t.app).get('/favicon.webp')

    const res = await admin.delete(LOGO)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.body).toBe('')
    expect(globalConfig()).toMatchObject({ logoHash: '', faviconHash: '' })
    for (const hash of [logoHash!, faviconHash!]) {
      expect(await fileRow(hash)).toBeUndefined()
      expect(await stored(hash)).toBe(false)
    }
    expect((await new Agent(t.app).get('/api/config')).json().logoUrl).toBeNull()
    expect((await new Agent(t.app).get(`/assets/${logoHash}/logo`)).statusCode).toBe(404)

    // A client holding the custom favicon gets the default, not a 304.
    const favicon = await new Agent(t.app).get('/favicon.webp', {
      'if-none-match': seen.headers.etag as string,
      'if-modified-since': seen.headers['last-modified'] as string,
    })
    expect(favicon.statusCode).toBe(200)
    expect(favicon.rawPayload.equals(DEFAULT_FAVICON)).toBe(true)
    expect(await auditMessages()).toContain('Admin removed the platform logo')

    // Removing again is harmless.
    expect((await admin.delete(LOGO)).statusCode).toBe(200)
  })
})
