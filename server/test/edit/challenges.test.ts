import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gameInstances, participations, teams } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createChallenge, createGame, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const base = (gameId: number, cId?: number) => `/api/edit/games/${gameId}/challenges${cId ? `/${cId}` : ''}`

async function uploadAsset(name = 'notes.txt', content = `content ${Math.random()}`) {
  const res = await admin.upload(
    'POST',
    '/api/assets',
    { bytes: Buffer.from(content), name, type: 'text/plain' },
    'files',
  )
  expect(res.statusCode).toBe(200)
  return res.json()[0] as { hash: string; name: string }
}

/** A team taking part in the game, inserted directly (joining games is the next issue's API). */
async function participatingTeam(gameId: number, status = 1) {
  const { agent } = await registeredUser(t.app)
  const me = (await agent.get('/api/account/profile')).json()
  const [team] = await t.app.deps.db
    .insert(teams)
    .values({ name: 'T', inviteToken: '0'.repeat(32), captainId: me.userId })
    .returning()
  const [p] = await t.app.deps.db
    .insert(participations)
    .values({ gameId, teamId: team!.id, status, token: `${team!.id}:x` })
    .returning()
  return p!
}

describe('challenges', () => {
  it('creates a disabled challenge with the contract defaults', async () => {
    const game = await createGame(admin)
    const res = await admin.post(base(game.id), {
      title: 'Baby RSA',
      category: 'Crypto',
      type: 'DynamicContainer',
    })
    expect(res.json()).toEqual({
      id: expect.any(Number),
      title: 'Baby RSA',
      content: '',
      category: 'Crypto',
      type: 'DynamicContainer',
      hints: [],
      flagTemplate: null,
      isEnabled: false,
      acceptedCount: 0,
      fileName: 'attachment',
      attachment: null,
      testContainer: null,
      flags: [],
      containerImage: '',
      memoryLimit: 64,
      cpuCount: 1,
      storageLimit: 256,
      containerExposePort: 80,
      enableTrafficCapture: false,
      disableBloodBonus: false,
      submissionLimit: 0,
      originalScore: 1000,
      minScoreRate: 0.25,
      difficulty: 5,
      // Our addition (scheduled release): extra fields, null until an organiser sets them.
      openAt: null,
      closeAt: null,
      // Our addition (challenges as code): the folder a sync ties it to; null when made by hand.
      sourceKey: null,
    })
  })

  it('accepts enum values as integers and in any case', async () => {
    const game = await createGame(admin)
    const res = await admin.post(base(game.id), { title: 'x', category: 2, type: 'staticcontainer' })
    expect(res.json()).toMatchObject({ category: 'Pwn', type: 'StaticContainer' })
    expect((await admin.post(base(game.id), { title: 'x', category: 99 })).statusCode).toBe(400)
    expect((await admin.post(base(game.id), { title: 'x', type: 'Quantum' })).json().title).toMatch(
      /type must be one of/,
    )
  })

  it('lists challenges with current, minimum and original scores', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { category: 'Web' })
    await admin.put(base(game.id, c.id), { originalScore: 500, minScoreRate: 0.5 })
    expect((await admin.get(base(game.id))).json()).toEqual([
      {
        id: c.id,
        title: c.title,
        category: 'Web',
        type: 'StaticAttachment',
        isEnabled: false,
        score: 500,
        minScore: 250,
        originalScore: 500,
        openAt: null,
        closeAt: null,
        sourceKey: null,
      },
    ])
  })

  it('ties a challenge to its folder by a source key: unique per game, cleared by "", hidden from players', async () => {
    const game = await createGame(admin)
    const created = await admin.post(base(game.id), { title: 'SQLi', category: 'Web', sourceKey: 'web/sqli' })
    expect(created.statusCode, created.body).toBe(200)
    const c = created.json() as { id: number; sourceKey: string }
    expect(c.sourceKey).toBe('web/sqli')
    expect((await admin.get(base(game.id))).json()).toEqual([
      expect.objectContaining({ sourceKey: 'web/sqli' }),
    ])
    // A second challenge of the game cannot take the key (409, in the error shape), by create or update.
    const dup = await admin.post(base(game.id), { title: 'Copy', sourceKey: 'web/sqli' })
    expect(dup.statusCode).toBe(409)
    expect(dup.json()).toEqual({ title: expect.any(String), status: 409 })
    const other = await createChallenge(admin, game.id)
    expect((await admin.put(base(game.id, other.id), { sourceKey: 'web/sqli' })).statusCode).toBe(409)
    // Another game may use the same key; null keeps it, "" unties it.
    const game2 = await createGame(admin)
    expect((await admin.post(base(game2.id), { title: 'SQLi', sourceKey: 'web/sqli' })).statusCode).toBe(200)
    expect(
      (await admin.put(base(game.id, c.id), { sourceKey: null, title: 'SQLi 2' })).json().sourceKey,
    ).toBe('web/sqli')
    for (const bad of ['x'.repeat(256), 'a\nb', 7]) {
      expect((await admin.put(base(game.id, c.id), { sourceKey: bad })).statusCode, String(bad)).toBe(400)
    }
    // Players see the challenge, never the key.
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'flag{k}' }])
    await admin.put(base(game.id, c.id), { isEnabled: true })
    const player = await acceptedPlayer(t.app, admin, game.id)
    const seen = await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    expect(seen.statusCode, seen.body).toBe(200)
    expect(seen.json().title).toBe('SQLi 2')
    expect(seen.body).not.toContain('web/sqli')
    expect((await player.agent.get(`/api/game/${game.id}/details`)).body).not.toContain('web/sqli')
    expect((await admin.put(base(game.id, c.id), { sourceKey: '' })).json().sourceKey).toBeNull()
    expect((await admin.put(base(game.id, other.id), { sourceKey: 'web/sqli' })).statusCode).toBe(200)
  })

  it('refuses to enable a challenge without flags, then enables it with one', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    expect((await admin.put(base(game.id, c.id), { isEnabled: true })).json()).toEqual({
      title: 'Add a flag before enabling this challenge',
      status: 400,
    })
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'flag{static}' }])
    const res = await admin.put(base(game.id, c.id), { isEnabled: true })
    expect(res.json()).toMatchObject({ isEnabled: true, flags: [{ flag: 'flag{static}', attachment: null }] })
  })

  it('applies the other checks in the contract’s order', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { type: 'StaticAttachment' })
    expect((await admin.put(base(game.id, c.id), { enableTrafficCapture: true })).json().title).toBe(
      'Traffic capture needs a container challenge',
    )
    expect((await admin.put(base(game.id, c.id), { fileName: '  ' })).json().title).toBe(
      'The attachment file name must not be blank',
    )
    const dyn = await createChallenge(admin, game.id, { type: 'DynamicContainer' })
    expect((await admin.put(base(game.id, dyn.id), { flagTemplate: 'flag{easy}' })).json().title).toMatch(
      /too easy to guess/,
    )
    const ok = await admin.put(base(game.id, dyn.id), {
      flagTemplate: 'flag{[TEAM_HASH]}',
      enableTrafficCapture: true,
      isEnabled: true,
    })
    expect(ok.json()).toMatchObject({
      flagTemplate: 'flag{[TEAM_HASH]}',
      enableTrafficCapture: true,
      isEnabled: true,
    })
    expect((await admin.put(base(game.id, dyn.id), { flagTemplate: '' })).json().flagTemplate).toBeNull()
  })

  it('keeps fields sent as null and refuses out-of-range values', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    await admin.put(base(game.id, c.id), { content: 'Find it.', hints: ['look closer'] })
    const res = await admin.put(base(game.id, c.id), { content: null, hints: null, title: null })
    expect(res.json()).toMatchObject({ content: 'Find it.', hints: ['look closer'], title: c.title })
    for (const body of [
      { memoryLimit: 16 },
      { cpuCount: 0 },
      { minScoreRate: 1.5 },
      { submissionLimit: 10001 },
      { storageLimit: 64 },
    ]) {
      expect((await admin.put(base(game.id, c.id), body)).statusCode).toBe(400)
    }
  })

  it('hides the flags of a dynamic container challenge', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { type: 'DynamicContainer' })
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'flag{should not list}' }])
    expect((await admin.get(base(game.id, c.id))).json().flags).toEqual([])
  })

  it('does not find a challenge through another game', async () => {
    const a = await createGame(admin)
    const b = await createGame(admin)
    const c = await createChallenge(admin, a.id)
    expect((await admin.get(base(b.id, c.id))).json()).toEqual({ title: 'Challenge not found', status: 404 })
    expect((await admin.put(base(b.id, c.id), { title: 'hijack' })).statusCode).toBe(404)
    expect((await admin.delete(base(b.id, c.id))).statusCode).toBe(404)
  })

  it('is for admins only', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const { agent } = await registeredUser(t.app)
    expect((await agent.get(base(game.id, c.id))).statusCode).toBe(403)
    expect((await agent.put(base(game.id, c.id), { title: 'x' })).statusCode).toBe(403)
    expect((await new Agent(t.app).get(base(game.id))).statusCode).toBe(401)
  })
})

describe('notices from challenge changes', () => {
  const notices = async (gameId: number) => {
    const { gameNotices } = await import('../../src/db/schema.ts')
    return t.app.deps.db.select().from(gameNotices).where(eq(gameNotices.gameId, gameId))
  }

  it('posts NewChallenge once when a challenge is enabled during the game, and NewHint when hints change', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'f' }])
    await admin.put(base(game.id, c.id), { isEnabled: true })
    await admin.put(base(game.id, c.id), { isEnabled: true, content: 'again' })
    await admin.put(base(game.id, c.id), { hints: ['first hint'] })
    await admin.put(base(game.id, c.id), { hints: ['first hint'] })
    const types = (await notices(game.id)).map((n) => [n.type, n.values])
    expect(types).toEqual([
      [5, [c.title]],
      [4, [c.title]],
    ])
  })

  it('posts nothing for a game that has not started', async () => {
    const game = await createGame(admin, { start: Date.now() + 3600_000, end: Date.now() + 7200_000 })
    const c = await createChallenge(admin, game.id)
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'f' }])
    await admin.put(base(game.id, c.id), { isEnabled: true, hints: ['h'] })
    expect(await notices(game.id)).toEqual([])
  })
})

describe('instances', () => {
  it('gives every team of the game an instance when a challenge is enabled', async () => {
    const game = await createGame(admin)
    const p1 = await participatingTeam(game.id, 1)
    const p2 = await participatingTeam(game.id, 0)
    const c = await createChallenge(admin, game.id)
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'f' }])
    await admin.put(base(game.id, c.id), { isEnabled: true })
    const rows = await t.app.deps.db.select().from(gameInstances).where(eq(gameInstances.challengeId, c.id))
    expect(rows.map((r) => r.participationId).sort()).toEqual([p1.id, p2.id].sort())
  })

  it('recounts solves from accepted teams only, resetting challenges with none', async () => {
    const game = await createGame(admin)
    const accepted = await participatingTeam(game.id, 1)
    const suspended = await participatingTeam(game.id, 3)
    const solvedOne = await createChallenge(admin, game.id)
    const unsolved = await createChallenge(admin, game.id)
    const db = t.app.deps.db
    await db.insert(gameInstances).values([
      { challengeId: solvedOne.id, participationId: accepted.id, isSolved: true },
      { challengeId: solvedOne.id, participationId: suspended.id, isSolved: true },
    ])
    const { challenges } = await import('../../src/db/schema.ts')
    await db.update(challenges).set({ acceptedCount: 7 }).where(eq(challenges.id, unsolved.id))
    expect((await admin.post(`/api/edit/games/${game.id}/challenges/updateaccepted`)).statusCode).toBe(200)
    const byId = Object.fromEntries(
      (await admin.get(base(game.id))).json().map((c: { id: number }) => [c.id, c]),
    )
    expect((await admin.get(base(game.id, solvedOne.id))).json().acceptedCount).toBe(1)
    expect((await admin.get(base(game.id, unsolved.id))).json().acceptedCount).toBe(0)
    expect(byId[unsolved.id].score).toBe(1000)
  })
})

describe('flags and attachments', () => {
  it('removes flags one by one; the last removal disables the challenge', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    await admin.post(`${base(game.id, c.id)}/flags`, [{ flag: 'a' }, { flag: 'b' }])
    await admin.put(base(game.id, c.id), { isEnabled: true })
    const [fa, fb] = (await admin.get(base(game.id, c.id))).json().flags
    expect((await admin.delete(`${base(game.id, c.id)}/flags/${fa.id}`)).json()).toBe('Success')
    expect((await admin.get(base(game.id, c.id))).json().isEnabled).toBe(true)
    expect((await admin.delete(`${base(game.id, c.id)}/flags/${fb.id}`)).json()).toBe('Success')
    expect((await admin.get(base(game.id, c.id))).json().isEnabled).toBe(false)
    expect((await admin.delete(`${base(game.id, c.id)}/flags/${fb.id}`)).json()).toBe('NotFound')
  })

  it('refuses blank, over-long and malformed flags', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    for (const body of [
      [{ flag: ' ' }],
      [{ flag: 'x'.repeat(128) }],
      // 64 emoji: 64 code points but 128 UTF-16 code units, which is what the reference counts.
      [{ flag: '🚩'.repeat(64) }],
      [],
      { flag: 'a' },
      [{ flag: 'a', attachmentType: 'Local' }],
    ]) {
      expect((await admin.post(`${base(game.id, c.id)}/flags`, body)).statusCode).toBe(400)
    }
  })

  it('attaches a stored file, a remote URL, or nothing, and frees replaced files', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const asset = await uploadAsset('handout.zip')
    await admin.post(`${base(game.id, c.id)}/attachment`, { attachmentType: 'Local', fileHash: asset.hash })
    const local = (await admin.get(base(game.id, c.id))).json().attachment
    expect(local).toEqual({
      id: expect.any(Number),
      type: 'Local',
      url: `/assets/${asset.hash}/handout.zip`,
      fileSize: expect.any(Number),
    })
    expect((await new Agent(t.app).get(local.url)).headers['content-type']).toBe('application/zip')

    await admin.post(`${base(game.id, c.id)}/attachment`, {
      attachmentType: 'Remote',
      remoteUrl: 'https://files.example.org/h.zip',
    })
    expect((await admin.get(base(game.id, c.id))).json().attachment).toMatchObject({
      type: 'Remote',
      url: 'https://files.example.org/h.zip',
      fileSize: null,
    })
    // The asset library still holds its own reference.
    expect((await new Agent(t.app).get(local.url)).statusCode).toBe(200)

    await admin.post(`${base(game.id, c.id)}/attachment`, { attachmentType: 'None' })
    expect((await admin.get(base(game.id, c.id))).json().attachment).toBeNull()
  })

  it('refuses an unknown file, a missing URL, a javascript: URL, and challenge attachments on dynamic ones', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const url = `${base(game.id, c.id)}/attachment`
    expect((await admin.post(url, { attachmentType: 'Local', fileHash: 'a'.repeat(64) })).json()).toEqual({
      title: 'File not found',
      status: 404,
    })
    expect((await admin.post(url, { attachmentType: 'Remote' })).statusCode).toBe(400)
    expect(
      (await admin.post(url, { attachmentType: 'Remote', remoteUrl: 'javascript:alert(1)' })).statusCode,
    ).toBe(400)
    const dyn = await createChallenge(admin, game.id, { type: 'DynamicAttachment' })
    expect(
      (await admin.post(`${base(game.id, dyn.id)}/attachment`, { attachmentType: 'None' })).json().title,
    ).toBe('A dynamic-attachment challenge takes its files with its flags')
  })

  it('gives each dynamic-attachment flag its own file, downloaded under the challenge file name', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { type: 'DynamicAttachment' })
    await admin.put(base(game.id, c.id), { fileName: 'chall.bin' })
    const a = await uploadAsset('a.bin')
    const b = await uploadAsset('b.bin')
    await admin.post(`${base(game.id, c.id)}/flags`, [
      { flag: 'flag{a}', attachmentType: 'Local', fileHash: a.hash },
      { flag: 'flag{b}', attachmentType: 'Local', fileHash: b.hash },
    ])
    const flags = (await admin.get(base(game.id, c.id))).json().flags
    expect(flags.map((f: { attachment: { url: string } }) => f.attachment.url)).toEqual([
      `/assets/${a.hash}/chall.bin`,
      `/assets/${b.hash}/chall.bin`,
    ])
  })

  it('deleting a challenge lets go of its files', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id)
    const asset = await uploadAsset('gone.txt')
    await admin.post(`${base(game.id, c.id)}/attachment`, { attachmentType: 'Local', fileHash: asset.hash })
    await admin.delete(`/api/assets/${asset.hash}`) // the library's reference
    expect((await new Agent(t.app).get(`/assets/${asset.hash}/gone.txt`)).statusCode).toBe(200)
    expect((await admin.delete(base(game.id, c.id))).statusCode).toBe(200)
    expect((await new Agent(t.app).get(`/assets/${asset.hash}/gone.txt`)).statusCode).toBe(404)
  })
})

describe('assets', () => {
  it('stores several files, deduplicated by content, optionally renamed', async () => {
    const body = `same ${Math.random()}`
    const first = await uploadAsset('one.txt', body)
    const again = await admin.upload(
      'POST',
      '/api/assets?filename=renamed.txt',
      { bytes: Buffer.from(body), name: 'two.txt', type: 'text/plain' },
      'files',
    )
    expect(again.json()).toEqual([{ hash: first.hash, name: 'renamed.txt' }])
  })

  it('is for admins only, and refuses bad requests', async () => {
    const { agent } = await registeredUser(t.app)
    const file = { bytes: Buffer.from('x'), name: 'x.txt', type: 'text/plain' }
    expect((await agent.upload('POST', '/api/assets', file, 'files')).statusCode).toBe(403)
    expect((await admin.upload('POST', '/api/assets', file, 'wrongfield')).statusCode).toBe(400)
    expect((await admin.upload('POST', '/api/assets?filename=../../etc', file, 'files')).statusCode).toBe(400)
    expect((await admin.delete(`/api/assets/${'b'.repeat(64)}`)).statusCode).toBe(404)
    expect((await admin.delete('/api/assets/xyz')).statusCode).toBe(400)
  })
})
