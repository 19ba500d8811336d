import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { files } from '../../src/db/schema.ts'
import { PASSWORD, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const picture = (format: 'png' | 'gif' | 'jpeg' | 'webp' | 'avif', width = 640) =>
  sharp({ create: { width, height: 480, channels: 3, background: { r: 200, g: 40, b: 90 } } })
    .toFormat(format)
    .toBuffer()

describe('PUT /api/account/update', () => {
  it('changes the given fields and keeps those left out or null', async () => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.put('/api/account/update', {
      bio: 'pwn enjoyer',
      realName: 'Ada L',
      phone: '+44 20 7946 0958',
    })
    expect(res.statusCode).toBe(200)
    await agent.put('/api/account/update', { bio: null, stdNumber: 'S-42' })
    expect((await agent.get('/api/account/profile')).json()).toMatchObject({
      bio: 'pwn enjoyer',
      realName: 'Ada L',
      phone: '+44 20 7946 0958',
      stdNumber: 'S-42',
    })
  })

  it('clears the phone number with an empty string', async () => {
    const { agent } = await registeredUser(t.app)
    await agent.put('/api/account/update', { phone: '+44 20 7946 0958' })
    expect((await agent.put('/api/account/update', { phone: '' })).statusCode).toBe(200)
    expect((await agent.get('/api/account/profile')).json().phone).toBeNull()
  })

  it('renames, refusing a name someone else has', async () => {
    const a = await registeredUser(t.app)
    const b = await registeredUser(t.app)
    const taken = await a.agent.put('/api/account/update', { userName: b.userName.toUpperCase() })
    expect(taken.json()).toEqual({ title: 'This user name is taken', status: 400 })
    const renamed = `${a.userName.slice(0, 12)}NEW`
    expect((await a.agent.put('/api/account/update', { userName: renamed })).statusCode).toBe(200)
    expect((await a.agent.get('/api/account/profile')).json().userName).toBe(renamed)
  })

  it.each([
    [{ bio: 'x'.repeat(129) }, 'bio must NOT have more than 128 characters'],
    [{ phone: 'call me maybe' }, /^phone must match pattern/],
    [{ userName: 'ab' }, 'userName must NOT have fewer than 3 characters'],
    [{ realName: 5 }, 'realName must be string'],
  ])('rejects %j', async (body, title) => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.put('/api/account/update', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toMatch(title)
  })

  it('needs a session', async () => {
    expect((await new Agent(t.app).put('/api/account/update', { bio: 'x' })).statusCode).toBe(401)
  })
})

describe('PUT /api/account/avatar and GET /assets/{hash}/{name}', () => {
  it('stores a picture as a 300 px WebP served with caching headers', async () => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.upload('PUT', '/api/account/avatar', {
      bytes: await picture('png'),
      name: 'me.png',
      type: 'image/png',
    })
    expect(res.statusCode).toBe(200)
    const url = res.json() as string
    expect(url).toMatch(/^\/assets\/[0-9a-f]{64}\/avatar\.webp$/)
    const profile = (await agent.get('/api/account/profile')).json()
    expect(profile.avatar).toBe(url.replace(/\.webp$/, ''))

    const file = await new Agent(t.app).get(profile.avatar)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('image/webp')
    expect(file.headers['cache-control']).toBe('public, max-age=604800')
    expect(file.headers['x-content-type-options']).toBe('nosniff')
    const meta = await sharp(file.rawPayload).metadata()
    expect(meta).toMatchObject({ format: 'webp', width: 300 })

    const again = await new Agent(t.app).get(profile.avatar, { 'if-none-match': String(file.headers.etag) })
    expect(again.statusCode).toBe(304)
  })

  it.each(['gif', 'jpeg', 'webp', 'avif'] as const)('accepts %s', async (format) => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.upload('PUT', '/api/account/avatar', {
      bytes: await picture(format),
      name: `a.${format}`,
      type: `image/${format}`,
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatch(format === 'gif' ? /avatar\.gif$/ : /avatar\.webp$/)
  })

  it('releases the previous avatar file when replaced', async () => {
    const { agent } = await registeredUser(t.app)
    const first = (
      await agent.upload('PUT', '/api/account/avatar', {
        bytes: await picture('png', 500),
        name: 'a.png',
        type: 'image/png',
      })
    ).json()
    await agent.upload('PUT', '/api/account/avatar', {
      bytes: await picture('jpeg', 700),
      name: 'b.jpg',
      type: 'image/jpeg',
    })
    expect((await new Agent(t.app).get(first)).statusCode).toBe(404)
  })

  it('holds one reference to a picture uploaded twice, so replacing it frees the file', async () => {
    const { agent } = await registeredUser(t.app)
    const same = { bytes: await picture('png', 420), name: 'a.png', type: 'image/png' }
    const url = (await agent.upload('PUT', '/api/account/avatar', same)).json() as string
    expect((await agent.upload('PUT', '/api/account/avatar', same)).json()).toBe(url)
    const hash = url.split('/')[2]!
    const [row] = await t.app.deps.db.select().from(files).where(eq(files.hash, hash))
    expect(row!.referenceCount).toBe(1)
    await agent.upload('PUT', '/api/account/avatar', {
      bytes: await picture('jpeg', 710),
      name: 'b.jpg',
      type: 'image/jpeg',
    })
    expect((await new Agent(t.app).get(url)).statusCode).toBe(404)
  })

  it.each([
    [
      'text pretending to be a picture',
      Buffer.from('hello, not an image'),
      'x.png',
      'The image could not be read; use PNG, GIF, JPEG, WebP, AVIF or HEIC',
    ],
    [
      'an SVG',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'),
      'x.svg',
      'The image could not be read; use PNG, GIF, JPEG, WebP, AVIF or HEIC',
    ],
    ['an empty file', Buffer.alloc(0), 'x.png', 'The file is empty'],
    ['a file over 3 MiB', Buffer.alloc(3 * 1024 * 1024 + 1, 1), 'x.png', 'The file is too large'],
  ])('refuses %s with 400', async (_, bytes, name, title) => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.upload('PUT', '/api/account/avatar', { bytes, name, type: 'image/png' })
    expect(res.json()).toEqual({ title, status: 400 })
  })

  it('refuses a request without the file field, and anonymous callers', async () => {
    const { agent } = await registeredUser(t.app)
    const wrongField = await agent.upload(
      'PUT',
      '/api/account/avatar',
      { bytes: await picture('png'), name: 'a.png', type: 'image/png' },
      'picture',
    )
    expect(wrongField.statusCode).toBe(400)
    const json = await agent.put('/api/account/avatar', { file: 'x' })
    expect(json.statusCode).toBe(400)
    const anon = await new Agent(t.app).upload('PUT', '/api/account/avatar', {
      bytes: await picture('png'),
      name: 'a.png',
      type: 'image/png',
    })
    expect(anon.statusCode).toBe(401)
  })

  it.each([
    ['/assets/ABCDEF/avatar', 400],
    [`/assets/${'A'.repeat(64)}/avatar`, 400],
    [`/assets/${'0'.repeat(64)}/avatar`, 404],
    ['/assets/..%2F..%2Fetc%2Fpasswd/x', 400],
    [`/assets/${'0'.repeat(63)}/../../../../etc/passwd`, 404],
  ])('answers %s with %i and never reads outside the store', async (url, status) => {
    const res = await new Agent(t.app).get(url)
    expect(res.statusCode).toBe(status)
    expect(res.json().status).toBe(status)
  })
})

describe('PUT /api/account/changepassword', () => {
  it('changes the password, keeps this session and ends the others', async () => {
    const user = await registeredUser(t.app)
    const other = new Agent(t.app)
    await other.post('/api/account/login', { userName: user.userName, password: PASSWORD })
    const res = await user.agent.put('/api/account/changepassword', { old: PASSWORD, new: 'Chang3dPw' })
    expect(res.statusCode).toBe(200)
    expect((await user.agent.get('/api/account/profile')).statusCode).toBe(200)
    expect((await other.get('/api/account/profile')).statusCode).toBe(401)
    const login = await new Agent(t.app).post('/api/account/login', {
      userName: user.userName,
      password: 'Chang3dPw',
    })
    expect(login.statusCode).toBe(200)
  })

  it.each([
    [{ old: 'Wr0ngPass', new: 'Chang3dPw' }, 'The current password is wrong'],
    [
      { old: PASSWORD, new: 'weakpass' },
      'The password needs at least 6 characters, with a digit, a lowercase letter and an uppercase letter',
    ],
    [{ old: PASSWORD }, 'new is required'],
    [{ old: PASSWORD, new: 'abc' }, 'new must NOT have fewer than 6 characters'],
  ])('refuses %j', async (body, title) => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.put('/api/account/changepassword', body)
    expect(res.json()).toEqual({ title, status: 400 })
  })
})
