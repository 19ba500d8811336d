import { createHash } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { count } from 'drizzle-orm'
import { strToU8, unzipSync, zipSync } from 'fflate'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { files, games, teamMembers } from '../../src/db/schema.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  expectAdminOnly,
  registeredUser,
  staticChallenge,
  teamOf,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

/** Two instances on two databases: games leave the first and arrive on the second. */
let from: TestApp
let to: TestApp
let adminFrom: Agent
let adminTo: Agent
beforeAll(async () => {
  ;[from, to] = await Promise.all([createTestApp(), createTestApp()])
  ;[adminFrom, adminTo] = await Promise.all([adminAgent(from.app), adminAgent(to.app)])
  for (const admin of [adminFrom, adminTo]) await admin.put('/api/ext/features', { gameTransfer: true })
  // Two apps (on PGlite, two databases in this process): more than one's start-up time.
}, 180_000)
afterAll(() => Promise.all([from?.close(), to?.close()]))

const ZIP = { name: 'game.pennant.zip', type: 'application/zip' }
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex')

async function exportGame(gameId: number, full = false): Promise<Buffer> {
  const res = await adminFrom.get(`/api/ext/games/${gameId}/export${full ? '?full=true' : ''}`)
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200)
  expect(res.headers['content-type']).toBe('application/zip')
  expect(res.headers['content-disposition']).toContain(`game-${gameId}`)
  return res.rawPayload
}
const preview = (bytes: Buffer, query = '') =>
  adminTo.upload('POST', `/api/ext/games/import/preview${query}`, { ...ZIP, bytes })
const importArchive = (bytes: Buffer, query = '') =>
  adminTo.upload('POST', `/api/ext/games/import${query}`, { ...ZIP, bytes })

/** A game with everything an archive carries: poster, divisions, hints, files, remote links, notices. */
async function richGame() {
  const game = await createGame(adminFrom, {
    divisions: ['Students', 'Open'],
    summary: 'A summary',
    content: 'The **rules**',
    writeupNote: 'PDF please',
    inviteCode: 'letmein',
  })
  const png = await sharp({ create: { width: 80, height: 45, channels: 3, background: '#224488' } })
    .png()
    .toBuffer()
  await adminFrom.upload('PUT', `/api/edit/games/${game.id}/poster`, {
    bytes: png,
    name: 'p.png',
    type: 'image/png',
  })
  const web = await staticChallenge(adminFrom, game.id, 'flag{moved}', {
    hints: ['look closer', 'even closer'],
    content: 'Find the flag',
  })
  const asset = (
    await adminFrom.upload(
      'POST',
      '/api/assets',
      { bytes: Buffer.from('attached bytes'), name: 'notes.txt', type: 'text/plain' },
      'files',
    )
  ).json()[0] as { hash: string }
  await adminFrom.post(`/api/edit/games/${game.id}/challenges/${web.id}/attachment`, {
    attachmentType: 'Local',
    fileHash: asset.hash,
  })
  const remote = await createChallenge(adminFrom, game.id, { category: 'Misc' })
  await adminFrom.post(`/api/edit/games/${game.id}/challenges/${remote.id}/attachment`, {
    attachmentType: 'Remote',
    remoteUrl: 'https://files.example.org/remote.bin',
  })
  const dynamic = await createChallenge(adminFrom, game.id, { category: 'Pwn', type: 'DynamicContainer' })
  await adminFrom.put(`/api/edit/games/${game.id}/challenges/${dynamic.id}`, {
    containerImage: 'ghcr.io/example/pwn:1',
    containerExposePort: 1337,
    memoryLimit: 128,
    flagTemplate: 'flag{[TEAM_HASH]}',
  })
  await adminFrom.post(`/api/edit/games/${game.id}/notices`, { content: 'Welcome aboard' })
  return { game, web, remote, dynamic, asset }
}

/** Bytes of a ZIP holding these entries (fflate, as a foreign tool would write them). */
const zipOf = (entries: Record<string, string | Uint8Array>) =>
  Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(entries).map(([k, v]) => [k, typeof v === 'string' ? strToU8(v) : v]),
      ),
    ),
  )

describe('exporting and importing a game', () => {
  let source: Awaited<ReturnType<typeof richGame>>
  let archive: Buffer

  beforeAll(async () => {
    source = await richGame()
    archive = await exportGame(source.game.id)
  })

  it('writes one archive: a manifest with its format and version, and every file by its hash', () => {
    const entries = unzipSync(new Uint8Array(archive))
    const manifest = JSON.parse(Buffer.from(entries['manifest.json']!).toString('utf8'))
    expect(manifest).toMatchObject({ format: 'pennant-game', version: 1, full: false })
    expect(manifest.game).toMatchObject({ title: source.game.title, divisions: ['Students', 'Open'] })
    expect(manifest.challenges).toHaveLength(3)
    expect(manifest.teams).toBeUndefined()
    const blobs = Object.keys(entries).filter((n) => n.startsWith('blobs/'))
    expect(blobs).toHaveLength(2) // the poster and the attachment
    for (const name of blobs) expect(sha256(entries[name]!)).toBe(name.slice('blobs/'.length))
    expect(blobs).toContain(`blobs/${source.asset.hash}`)
  })

  it('previews what an import would create, and creates nothing', async () => {
    const [before] = await to.app.deps.db.select({ n: count() }).from(games)
    const res = await preview(archive)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({
      title: source.game.title,
      full: false,
      challenges: 3,
      flags: 1,
      attachments: 2,
      notices: 2, // ours and the platform's "new challenge"
      files: 2,
      size: archive.length,
      teams: 0,
      submissions: 0,
    })
    const codes = res.json().warnings.map((w: { code: string }) => w.code)
    expect(codes).toEqual(['DynamicFlagsChange', 'ContainerImages', 'RemoteAttachments'])
    expect(res.json().warnings[1].values).toEqual(['ghcr.io/example/pwn:1'])
    const [after] = await to.app.deps.db.select({ n: count() }).from(games)
    expect(after!.n).toBe(before!.n)
  })

  it('imports it on another instance as a new game with new keys, and the game plays there', async () => {
    const res = await importArchive(archive)
    expect(res.statusCode, res.body).toBe(200)
    const id = res.json().id as number
    const game = (await adminTo.get(`/api/edit/games/${id}`)).json()
    expect(game).toMatchObject({
      title: source.game.title,
      summary: 'A summary',
      content: 'The **rules**',
      divisions: ['Students', 'Open'],
      inviteCode: 'letmein',
      writeupNote: 'PDF please',
      start: source.game.start,
      end: source.game.end,
    })
    expect(game.publicKey).not.toBe(source.game.publicKey)
    const poster = await new Agent(to.app).get(game.poster)
    expect(poster.statusCode).toBe(200)
    expect(poster.headers['content-type']).toBe('image/webp')

    const list = (await adminTo.get(`/api/edit/games/${id}/challenges`)).json() as {
      id: number
      title: string
    }[]
    expect(list.map((c) => c.title).sort()).toEqual(
      [source.web.title, source.remote.title, source.dynamic.title].sort(),
    )
    const webHere = list.find((c) => c.title === source.web.title)!
    const detail = (await adminTo.get(`/api/edit/games/${id}/challenges/${webHere.id}`)).json()
    expect(detail).toMatchObject({
      hints: ['look closer', 'even closer'],
      content: 'Find the flag',
      isEnabled: true,
    })
    expect(detail.flags.map((f: { flag: string }) => f.flag)).toEqual(['flag{moved}'])
    const file = await new Agent(to.app).get(detail.attachment.url)
    expect(file.body).toBe('attached bytes')
    const remoteHere = list.find((c) => c.title === source.remote.title)!
    expect(
      (await adminTo.get(`/api/edit/games/${id}/challenges/${remoteHere.id}`)).json().attachment,
    ).toMatchObject({
      type: 'Remote',
      url: 'https://files.example.org/remote.bin',
    })
    const dynHere = list.find((c) => c.title === source.dynamic.title)!
    expect((await adminTo.get(`/api/edit/games/${id}/challenges/${dynHere.id}`)).json()).toMatchObject({
      type: 'DynamicContainer',
      containerImage: 'ghcr.io/example/pwn:1',
      containerExposePort: 1337,
      memoryLimit: 128,
      flagTemplate: 'flag{[TEAM_HASH]}',
    })
    const notices = (await adminTo.get(`/api/edit/games/${id}/notices`)).json()
    expect(notices.map((n: { values: string[] }) => n.values[0])).toEqual(['Welcome aboard'])

    // A player of the new instance solves the static challenge (after the invite code is lifted).
    await adminTo.put(`/api/edit/games/${id}`, {
      title: game.title,
      start: game.start,
      end: game.end,
      inviteCode: '',
    })
    const player = await registeredUser(to.app)
    const team = await teamOf(to.app, player)
    const joined = await player.agent.post(`/api/game/${id}`, { teamId: team.id, division: 'Open' })
    expect(joined.statusCode, joined.body).toBe(200)
    const [p] = (await adminTo.get(`/api/game/${id}/participations`)).json()
    await adminTo.put(`/api/admin/participation/${p.id}`, { status: 'Accepted' })
    const sub = await player.agent.post(`/api/game/${id}/challenges/${webHere.id}`, { flag: 'flag{moved}' })
    expect(sub.statusCode).toBe(200)
    await to.app.deps.services.judge.drain()
    const status = await player.agent.get(`/api/game/${id}/challenges/${webHere.id}/status/${sub.json()}`)
    expect(status.json()).toBe('Accepted')
    const board = (await new Agent(to.app).get(`/api/game/${id}/scoreboard`)).json()
    expect(board.items[0]).toMatchObject({ solvedCount: 1 })
  })

  it('imports the same archive twice at once, each holding its files', async () => {
    const [a, b] = await Promise.all([importArchive(archive), importArchive(archive)])
    expect([a.statusCode, b.statusCode], `${a.body} ${b.body}`).toEqual([200, 200])
    expect(a.json().id).not.toBe(b.json().id)
  })

  it('keeps a file shared with another game alive when that game is deleted', async () => {
    const again = (await importArchive(archive)).json().id as number
    const other = (await importArchive(archive)).json().id as number
    expect((await adminTo.delete(`/api/edit/games/${again}`)).statusCode).toBe(200)
    const list = (await adminTo.get(`/api/edit/games/${other}/challenges`)).json() as {
      id: number
      title: string
    }[]
    const c = list.find((x) => x.title === source.web.title)!
    const detail = (await adminTo.get(`/api/edit/games/${other}/challenges/${c.id}`)).json()
    expect((await new Agent(to.app).get(detail.attachment.url)).body).toBe('attached bytes')
  })
})

describe('a full archive', () => {
  it('carries teams and submissions, and brings them back only when asked, onto teams of that name', async () => {
    const game = await createGame(adminFrom, {
      writeupRequired: true,
      writeupDeadline: Date.now() + 3600_000,
    })
    const c = await staticChallenge(adminFrom, game.id, 'flag{full}')
    const player = await acceptedPlayer(from.app, adminFrom, game.id)
    const writeup = Buffer.from('%PDF-1.4\n% our writeup\n%%EOF\n')
    const sent = await player.agent.upload('POST', `/api/game/${game.id}/writeup`, {
      bytes: writeup,
      name: 'ours.pdf',
      type: 'application/pdf',
    })
    expect(sent.statusCode).toBe(200)
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'wrong' })
    await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{full}' })
    await from.app.deps.services.judge.drain()
    const teamName = (await from.app.deps.db.query.teams.findFirst({
      where: (t, { eq }) => eq(t.id, player.teamId),
    }))!.name

    const plain = unzipSync(new Uint8Array(await exportGame(game.id)))
    expect(JSON.parse(Buffer.from(plain['manifest.json']!).toString()).teams).toBeUndefined()
    const full = await exportGame(game.id, true)
    const manifest = JSON.parse(Buffer.from(unzipSync(new Uint8Array(full))['manifest.json']!).toString())
    expect(manifest.full).toBe(true)
    expect(manifest.teams).toEqual([
      expect.objectContaining({
        name: teamName,
        status: 1,
        members: [player.userName],
        writeup: sha256(writeup),
      }),
    ])
    expect(manifest.submissions.map((s: { answer: string }) => s.answer)).toEqual(['wrong', 'flag{full}'])

    // Without ?full=true the game alone comes over, and the preview says teams are left out.
    const lean = (await preview(full)).json()
    expect(lean).toMatchObject({ full: true, teams: 1, submissions: 2, teamsMatched: 0 })
    expect(lean.warnings).toContainEqual({ code: 'TeamsLeftOut', values: ['1'] })
    // Asked for, with no such team here: named, not created.
    expect((await preview(full, '?full=true')).json().warnings).toContainEqual({
      code: 'TeamsNotFound',
      values: [teamName],
    })

    // A team of that name exists here: its participation, submissions and solve come back.
    // The same player has an account here too (by user name), and a teammate who did not play.
    const here = await registeredUser(to.app, { userName: player.userName })
    const team = await teamOf(to.app, here, teamName)
    const newcomer = await registeredUser(to.app)
    const me = (await newcomer.agent.get('/api/account/profile')).json()
    await to.app.deps.db.insert(teamMembers).values({ teamId: team.id, userId: me.userId })
    const previewed = (await preview(full, '?full=true')).json()
    expect(previewed).toMatchObject({ teamsMatched: 1, submissionsImported: 2, warnings: [] })
    const res = await importArchive(full, '?full=true')
    expect(res.statusCode, res.body).toBe(200)
    const id = res.json().id
    const board = (await new Agent(to.app).get(`/api/game/${id}/scoreboard`)).json()
    expect(board.items).toEqual([expect.objectContaining({ name: teamName, solvedCount: 1 })])
    const [p] = (await adminTo.get(`/api/game/${id}/participations`)).json()
    expect(p).toMatchObject({ status: 'Accepted' })
    // The writeup came along, and the team's member here plays on for it.
    const writeups = (await adminTo.get(`/api/admin/writeups/${id}`)).json()
    expect(writeups).toHaveLength(1)
    expect((await adminTo.get(writeups[0].url)).rawPayload.equals(writeup)).toBe(true)
    expect((await here.agent.get(`/api/game/${id}`)).json()).toMatchObject({ status: 'Accepted', teamName })
    // Only those who played for it in the archive are signed up; the newcomer can join as usual.
    expect((await newcomer.agent.get(`/api/game/${id}`)).json()).toMatchObject({ teamName: null })
  })
})

describe('damaged and foreign archives', () => {
  let good: Buffer
  let manifest: Record<string, unknown> & { blobs: Record<string, unknown> }
  let blobs: Record<string, Uint8Array>

  beforeAll(async () => {
    const game = await createGame(adminFrom)
    const c = await staticChallenge(adminFrom, game.id, 'flag{x}')
    const asset = (
      await adminFrom.upload(
        'POST',
        '/api/assets',
        { bytes: Buffer.from('payload'), name: 'p.txt', type: 'text/plain' },
        'files',
      )
    ).json()[0] as { hash: string }
    await adminFrom.post(`/api/edit/games/${game.id}/challenges/${c.id}/attachment`, {
      attachmentType: 'Local',
      fileHash: asset.hash,
    })
    good = await exportGame(game.id)
    const entries = unzipSync(new Uint8Array(good))
    manifest = JSON.parse(Buffer.from(entries['manifest.json']!).toString())
    blobs = Object.fromEntries(Object.entries(entries).filter(([k]) => k.startsWith('blobs/')))
  })

  const withManifest = (m: unknown, extra: Record<string, Uint8Array> = blobs) =>
    zipOf({ 'manifest.json': JSON.stringify(m), ...extra })

  const cases: [string, () => Buffer, number, RegExp][] = [
    ['a truncated archive', () => good.subarray(0, Math.floor(good.length / 2)), 400, /not a ZIP|cut short/],
    [
      'bytes that are no ZIP',
      () => Buffer.from('%PDF-1.7 certainly not a zip file'.repeat(10)),
      400,
      /not a ZIP/,
    ],
    ['a ZIP without a manifest', () => zipOf({ 'readme.txt': 'hello' }), 400, /not a Pennant game archive/],
    [
      'another tool’s manifest',
      () => withManifest({ format: 'ctfd-export', version: 1 }),
      400,
      /not a Pennant/,
    ],
    [
      'a manifest that is not JSON',
      () => zipOf({ 'manifest.json': '{"format": "pennant-game",' }),
      400,
      /not JSON/,
    ],
    ['a newer version', () => withManifest({ ...manifest, version: 2 }), 400, /version 2/],
    [
      'a manifest missing its game',
      () => withManifest({ ...manifest, game: undefined }),
      400,
      /manifest .* is damaged/,
    ],
    [
      'a manifest with a NUL character in a text',
      () => withManifest({ ...manifest, game: { ...(manifest.game as object), title: 'a\u0000b' } }),
      400,
      /NUL character/,
    ],
    [
      'a date the database cannot hold',
      () => withManifest({ ...manifest, game: { ...(manifest.game as object), start: -1e15 } }),
      400,
      /manifest .* is damaged/,
    ],
    ['a file listed but missing', () => withManifest(manifest, {}), 400, /lacks the file [0-9a-f]{64}/],
    [
      'a file whose content does not match its hash',
      () =>
        withManifest(manifest, Object.fromEntries(Object.keys(blobs).map((k) => [k, strToU8('tampered')]))),
      400,
      /does not match its hash/,
    ],
    [
      'a challenge pointing at a file not listed',
      () => withManifest({ ...manifest, blobs: {} }, {}),
      400,
      /used but not listed/,
    ],
  ]

  it.each(cases)('refuses %s with a clear 4xx, and creates nothing', async (_what, make, status, title) => {
    const [gamesBefore] = await to.app.deps.db.select({ n: count() }).from(games)
    const [filesBefore] = await to.app.deps.db.select({ n: count() }).from(files)
    for (const send of [preview, importArchive]) {
      const res = await send(make())
      expect(res.statusCode).toBe(status)
      expect(res.json()).toEqual({ title: expect.stringMatching(title), status })
    }
    const [gamesAfter] = await to.app.deps.db.select({ n: count() }).from(games)
    const [filesAfter] = await to.app.deps.db.select({ n: count() }).from(files)
    expect(gamesAfter!.n).toBe(gamesBefore!.n)
    expect(filesAfter!.n).toBe(filesBefore!.n)
  })

  it('never writes an entry by its name: a path in the archive goes nowhere', async () => {
    const outside = path.join(to.dataDir, '..', `escaped-${process.pid}.txt`)
    const evil = withManifest(manifest, {
      ...blobs,
      [`../${path.basename(outside)}`]: strToU8('out'),
      [`../../${path.basename(outside)}`]: strToU8('out'),
    })
    const res = await importArchive(evil)
    expect(res.statusCode, res.body).toBe(200)
    expect(existsSync(outside)).toBe(false)
    expect(existsSync(path.join(to.dataDir, '..', '..', path.basename(outside)))).toBe(false)
  })

  it('tells the error in the admin’s language', async () => {
    const bad = await adminTo.upload('POST', '/api/ext/games/import/preview?culture=de-DE', {
      ...ZIP,
      bytes: Buffer.from('no zip at all, none'),
    })
    expect(bad.json().title).toMatch(/kein ZIP-Archiv/)
  })

  describe('limits', () => {
    const limits = () => to.app.deps.services.transfer.limits
    let saved: typeof to.app.deps.services.transfer.limits
    beforeAll(() => {
      saved = { ...limits() }
    })
    afterAll(() => {
      Object.assign(limits(), saved)
    })

    it('refuses an archive over the size limit (413)', async () => {
      limits().maxArchiveBytes = 1024
      const res = await importArchive(Buffer.concat([good, Buffer.alloc(2048)]))
      expect(res.statusCode).toBe(413)
      expect(res.json().title).toMatch(/larger than the limit/)
      Object.assign(limits(), saved)
    })

    it('refuses too many entries (413)', async () => {
      limits().maxEntries = 10
      const many = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`x/${i}`, 'x']))
      const res = await preview(
        withManifest(manifest, {
          ...blobs,
          ...Object.fromEntries(Object.entries(many).map(([k, v]) => [k, strToU8(v)])),
        }),
      )
      expect(res.statusCode).toBe(413)
      expect(res.json().title).toMatch(/more than 10 entries/)
      Object.assign(limits(), saved)
    })

    it('refuses a zip bomb by its unpacked size, before inflating it (413)', async () => {
      limits().maxUnpackedBytes = 1024 * 1024
      // 16 MiB of zeros deflate to about 16 KiB.
      const bomb = withManifest(manifest, { ...blobs, 'blobs/zeros': new Uint8Array(16 * 1024 * 1024) })
      expect(bomb.length).toBeLessThan(64 * 1024)
      const res = await importArchive(bomb)
      expect(res.statusCode).toBe(413)
      expect(res.json().title).toMatch(/unpacks to more than 1 MiB/)
      Object.assign(limits(), saved)
    })

    it('reads at most maxManifestBytes of manifest into memory, and leaves no upload behind', async () => {
      limits().maxManifestBytes = 1024
      const big = withManifest({
        ...manifest,
        game: { ...(manifest.game as object), summary: 'x'.repeat(4096) },
      })
      const res = await preview(big)
      expect(res.statusCode).toBe(400)
      expect(res.json().title).toMatch(/larger than 0 MiB|manifest/)
      Object.assign(limits(), saved)
      expect((await preview(big)).statusCode).toBe(200)
      // Uploads are written to DATA_DIR/tmp while they are read, and removed after.
      expect(readdirSync(path.join(to.dataDir, 'tmp'))).toEqual([])
    })

    it('refuses an entry whose header lies about its size', async () => {
      const honest = Buffer.from(withManifest(manifest))
      // Patch the manifest's uncompressed size in the central directory down to 10 bytes.
      const cd = honest.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
      const first = honest.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
      expect(cd).toBeGreaterThan(0)
      honest.writeUInt32LE(10, first + 24)
      const res = await preview(honest)
      expect(res.statusCode).toBe(400)
      // The inflater stops at the declared size: what comes out is refused as damaged.
      expect(res.json().title).toMatch(/damaged/)
    })
  })
})

describe('who may transfer games', () => {
  it('admins only: anonymous 401, users and monitors 403', async () => {
    const game = await createGame(adminFrom)
    await expectAdminOnly(from.app, adminFrom, [
      ['GET', `/api/ext/games/${game.id}/export`],
      ['POST', '/api/ext/games/import/preview'],
      ['POST', '/api/ext/games/import'],
    ])
  })

  it('answers 404 for a game that does not exist, and a 400 for a bad id or no file', async () => {
    expect((await adminFrom.get('/api/ext/games/999999/export')).statusCode).toBe(404)
    expect((await adminFrom.get('/api/ext/games/abc/export')).statusCode).toBe(400)
    expect((await adminFrom.get('/api/ext/games/1/export?full=maybe')).statusCode).toBe(400)
    const empty = await adminTo.post('/api/ext/games/import', {})
    expect(empty.statusCode).toBe(400)
    expect(empty.json()).toMatchObject({ status: 400 })
  })

  it('never answers 5xx to odd requests, and always in the error shape', async () => {
    const bodies: { payload: Buffer | string; type: string }[] = [
      { payload: '', type: 'multipart/form-data; boundary=x' },
      {
        payload: '--x\r\nContent-Disposition: form-data; name="file"\r\n\r\nabc',
        type: 'multipart/form-data; boundary=x',
      },
      { payload: '{"file": "zip"}', type: 'application/json' },
      { payload: Buffer.alloc(64, 0xff), type: 'application/octet-stream' },
      { payload: 'file=x', type: 'application/x-www-form-urlencoded' },
    ]
    for (const url of [
      '/api/ext/games/import/preview',
      '/api/ext/games/import',
      '/api/ext/games/import?full=2',
    ]) {
      for (const { payload, type } of bodies) {
        const res = await adminTo.request({ method: 'POST', url, payload, headers: { 'content-type': type } })
        expect(res.statusCode, `${url} ${type}`).toBeGreaterThanOrEqual(400)
        expect(res.statusCode, `${url} ${type}`).toBeLessThan(500)
        expect(res.json()).toEqual({ title: expect.any(String), status: res.statusCode })
      }
      const wrongField = await adminTo.upload('POST', url, { ...ZIP, bytes: Buffer.from('PK') }, 'archive')
      expect(wrongField.statusCode).toBe(400)
    }
    for (const url of [
      '/api/ext/games/0/export',
      '/api/ext/games/-1/export',
      '/api/ext/games/99999999999/export',
    ]) {
      const res = await adminFrom.get(url)
      expect(res.statusCode, url).toBeGreaterThanOrEqual(400)
      expect(res.statusCode, url).toBeLessThan(500)
    }
  })

  it('is not there while the switch is off (404), even for admins', async () => {
    const game = await createGame(adminFrom)
    await adminFrom.put('/api/ext/features', { gameTransfer: false })
    try {
      const res = await adminFrom.get(`/api/ext/games/${game.id}/export`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toMatchObject({ status: 404 })
      expect(
        (await adminFrom.upload('POST', '/api/ext/games/import', { ...ZIP, bytes: Buffer.from('x') }))
          .statusCode,
      ).toBe(404)
    } finally {
      await adminFrom.put('/api/ext/features', { gameTransfer: true })
    }
    expect((await adminFrom.get(`/api/ext/games/${game.id}/export`)).statusCode).toBe(200)
  })

  it('is documented in the OpenAPI document', async () => {
    const doc = from.app.swagger() as { paths: Record<string, unknown> }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/ext/games/{id}/export',
        '/api/ext/games/import/preview',
        '/api/ext/games/import',
      ]),
    )
  })
})
