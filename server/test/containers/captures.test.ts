import { randomBytes } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { gunzipSync } from 'node:zlib'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flags, gameInstances } from '../../src/db/schema.ts'
import { createCaptureService } from '../../src/modules/captures/captures.service.ts'
import type { ProxyEntry } from '../../src/modules/proxy/proxy.service.ts'
import { acceptedPlayer, adminAgent, createGame, registeredUser, setRole, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage, ECHO_PORT } from '../helpers/challenge-image.ts'
import { readPcap, readTar } from '../helpers/pcap.ts'
import { listen, openSocket, Refused, readAll, readBytes } from '../helpers/ws.ts'
import { closeContainerApp, containerChallenge } from './helpers.ts'

let t: TestApp
let admin: Agent
let monitor: Agent
let base: string
const network = `pn-t-${uniqueName('n')}`
beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({
    CONTAINER_BACKEND: 'docker',
    CONTAINER_NETWORK: network,
    CONTAINER_PORT_MAPPING: 'PlatformProxy',
    CONTAINER_TRAFFIC_CAPTURE: 'true',
  })
  admin = await adminAgent(t.app)
  const m = await registeredUser(t.app)
  await setRole(t.app, m.userName, 2)
  monitor = m.agent
  base = await listen(t.app)
}, 120_000)
afterAll(async () => {
  await closeContainerApp(t, network)
}, 60_000)

async function echoContainer(capture: boolean) {
  const game = await createGame(admin)
  const c = await containerChallenge(admin, game.id, {
    containerExposePort: ECHO_PORT,
    enableTrafficCapture: capture,
  })
  const player = await acceptedPlayer(t.app, admin, game.id)
  const res = await player.agent.post(`/api/game/${game.id}/container/${c.id}`)
  expect(res.statusCode, res.body).toBe(200)
  const entry = res.json().entry as string
  const [part] = await t.app.deps.db
    .select({ id: gameInstances.participationId, flag: flags.flag })
    .from(gameInstances)
    .leftJoin(flags, eq(flags.id, gameInstances.flagId))
    .where(eq(gameInstances.containerId, entry))
  return { game, c, player, entry, partId: part!.id, flag: part!.flag }
}

/** Opens the proxy, retrying while the echo service comes up; sends `parts`, reads them back. */
async function converse(entry: string, parts: Buffer[]) {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      const ws = await openSocket(`${base}/api/proxy/${entry}`)
      for (const p of parts) {
        const back = readBytes(ws, p.length)
        ws.send(p)
        expect((await back).equals(p)).toBe(true)
      }
      const closed = readAll(ws)
      ws.close()
      await closed
      return
    } catch (err) {
      if (!(err instanceof Refused) || err.status !== 418 || Date.now() > deadline) throw err
      // real wait: polling a real container until it listens
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

async function eventually<T>(read: () => Promise<T>, done: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const v = await read()
    if (done(v) || Date.now() > deadline) return v
    // real wait: polling between looks at the capture files
    await new Promise((r) => setTimeout(r, 100))
  }
}

describe('traffic capture of proxied connections', () => {
  it('writes each connection as a pcap that reads back to the same bytes, both ways', async () => {
    const { game, c, player, entry, partId, flag } = await echoContainer(true)
    const parts = [Buffer.from('hello container\n'), randomBytes(200_000), Buffer.from('bye\n')]
    await converse(entry, parts)

    const listUrl = `/api/game/captures/${c.id}/${partId}`
    const list = await eventually(
      async () =>
        (await monitor.get(listUrl)).json() as { fileName: string; size: number; updateTime: number }[],
      (l) => l.length === 1,
    )
    expect(list).toHaveLength(1)
    expect(list[0]!.fileName).toMatch(new RegExp(`^${entry.slice(0, 8)}-[0-9a-z]+\\.pcap$`))

    // The challenge and team lists lead there.
    const challengesRes = await monitor.get(`/api/game/games/${game.id}/captures`)
    expect(challengesRes.json()).toEqual([
      { id: c.id, title: c.title, category: 'Pwn', type: 'DynamicContainer', isEnabled: true, count: 1 },
    ])
    const teamsRes = await monitor.get(`/api/game/captures/${c.id}`)
    expect(teamsRes.json()).toEqual([
      expect.objectContaining({ id: partId, teamId: player.teamId, count: 1, avatar: null }),
    ])

    const file = await monitor.get(`${listUrl}/${list[0]!.fileName}`)
    expect(file.statusCode).toBe(200)
    expect(file.headers['content-type']).toBe('application/octet-stream')
    expect(file.headers['content-disposition']).toContain(list[0]!.fileName)
    expect(file.rawPayload.length).toBe(list[0]!.size)
    const frames = readPcap(file.rawPayload)

    // First the metadata, then a handshake, then the payload.
    const meta = frames[0]!
    expect(meta.protocol).toBe('udp')
    expect(meta.src).toBe('0.0.0.0')
    expect(JSON.parse(meta.payload.toString())).toMatchObject({
      Challenge: c.title,
      ChallengeId: c.id,
      TeamId: player.teamId,
      ContainerId: entry,
      Flag: flag,
    })
    const tcp = frames.slice(1)
    expect(tcp.every((f) => f.protocol === 'tcp')).toBe(true)
    const syn = tcp[0]!
    expect(syn.flags).toMatchObject({ syn: true, ack: false })
    expect(syn.src).toBe('127.0.0.1') // the player, as the server saw them
    expect(syn.dstPort).toBe(ECHO_PORT)
    const up = tcp.filter((f) => f.srcPort === syn.srcPort && f.src === syn.src)
    const down = tcp.filter((f) => f.srcPort === ECHO_PORT && f.dst === syn.src)
    expect(up.length + down.length).toBe(tcp.length)
    const sent = Buffer.concat(parts)
    expect(Buffer.concat(up.map((f) => f.payload)).equals(sent)).toBe(true)
    expect(Buffer.concat(down.map((f) => f.payload)).equals(sent)).toBe(true)
    // Sequence numbers add up, so tools can follow the stream.
    for (const side of [up, down]) {
      for (let i = 1; i < side.length; i++) {
        const prev = side[i - 1]!
        const grow = prev.payload.length + (prev.flags.syn || prev.flags.fin ? 1 : 0)
        expect(side[i]!.seq).toBe((prev.seq + grow) >>> 0)
      }
    }
    expect(tcp.at(-1)!.flags.ack).toBe(true)
    expect(tcp.filter((f) => f.flags.fin)).toHaveLength(2)

    // All of the team's files as one archive, the same bytes inside.
    const all = await monitor.get(`${listUrl}/all`)
    expect(all.statusCode).toBe(200)
    expect(all.headers['content-type']).toBe('application/gzip')
    expect(all.headers['content-disposition']).toMatch(
      new RegExp(`Capture-${c.id}-${partId}-\\d{8}-\\d\\d\\.\\d\\d\\.\\d\\dZ\\.tar\\.gz`),
    )
    const archived = readTar(gunzipSync(all.rawPayload))
    expect(Object.keys(archived)).toEqual([list[0]!.fileName])
    expect(archived[list[0]!.fileName]!.equals(file.rawPayload)).toBe(true)

    // A second connection is a second file; deleting one leaves the other.
    await converse(entry, [Buffer.from('again')])
    const two = await eventually(
      async () => (await monitor.get(listUrl)).json() as { fileName: string }[],
      (l) => l.length === 2,
    )
    expect(two).toHaveLength(2)
    expect((await monitor.delete(`${listUrl}/${list[0]!.fileName}`)).statusCode).toBe(200)
    const gone = await monitor.get(`${listUrl}/${list[0]!.fileName}`)
    expect(gone.statusCode).toBe(404)
    expect(gone.json()).toEqual({ title: 'No traffic capture found', status: 404 })
    expect((await monitor.delete(`${listUrl}/${list[0]!.fileName}`)).statusCode).toBe(404)
    expect((await monitor.get(listUrl)).json()).toHaveLength(1)
    expect((await monitor.delete(`${listUrl}/all`)).statusCode).toBe(200)
    expect((await monitor.get(listUrl)).json()).toEqual([])
    expect((await monitor.get(`/api/game/captures/${c.id}`)).statusCode).toBe(404)
  }, 90_000)

  it('records nothing for a challenge whose capture switch is off', async () => {
    const { c, entry, partId } = await echoContainer(false)
    await converse(entry, [Buffer.from('not recorded')])
    // real wait: the capture writer (real sockets and files) gets time to write what it would
    await new Promise((r) => setTimeout(r, 300))
    expect((await monitor.get(`/api/game/captures/${c.id}/${partId}`)).json()).toEqual([])
    expect((await monitor.get(`/api/game/captures/${c.id}`)).statusCode).toBe(404)
  }, 60_000)

  it('is for monitors: 401 anonymous, 403 players; names it does not know are 404', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { enableTrafficCapture: true })
    const player = await acceptedPlayer(t.app, admin, game.id)
    const urls = [
      `/api/game/games/${game.id}/captures`,
      `/api/game/captures/${c.id}`,
      `/api/game/captures/${c.id}/1`,
      `/api/game/captures/${c.id}/1/all`,
    ]
    for (const url of urls) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(401)
      const denied = await player.agent.get(url)
      expect(denied.statusCode, url).toBe(403)
      expect(denied.json()).toMatchObject({ status: 403 })
    }
    for (const name of ['..%2F..%2Fetc%2Fpasswd', 'x.pcap', '12345678-abc.txt']) {
      const res = await monitor.get(`/api/game/captures/${c.id}/1/${name}`)
      expect(res.statusCode, name).toBe(404)
    }
    expect((await monitor.get('/api/game/captures/999999')).statusCode).toBe(404)
    const missing = await monitor.get('/api/game/games/999999/captures')
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ status: 404 })
    // Hidden games are admins' only.
    const hide = await admin.put(`/api/edit/games/${game.id}`, {
      title: game.title,
      start: game.start,
      end: game.end,
      hidden: true,
    })
    expect(hide.statusCode, hide.body).toBe(200)
    expect((await monitor.get(`/api/game/games/${game.id}/captures`)).statusCode).toBe(404)
    expect((await admin.get(`/api/game/games/${game.id}/captures`)).statusCode).toBe(200)
    expect((await monitor.get(`/api/game/captures/${c.id}/1`)).statusCode).toBe(404)
    expect((await admin.get(`/api/game/captures/${c.id}/1`)).statusCode).toBe(200)
  }, 60_000)
})

describe('a capture that cannot be written', () => {
  it('stops capturing without failing the connection (a full disk: /dev/full)', async () => {
    const root = path.join(t.dataDir, 'files', 'full-disk')
    const captures = createCaptureService({
      db: t.app.deps.db,
      root,
      log: t.app.log,
      tempFile: () => '/dev/full',
    })
    const entry: ProxyEntry = {
      id: '0123abcd-0000-4000-8000-000000000000',
      backendId: 'x',
      port: 80,
      isTest: false,
      challengeId: 1,
      challenge: 'c',
      participationId: 1,
      teamId: 1,
      team: 't',
      flag: null,
      capture: true,
      target: null,
    }
    const rec = captures.record(
      entry,
      'conn1',
      { host: '127.0.0.1', port: 5000 },
      { host: '10.0.0.2', port: 80 },
    )
    expect(rec).not.toBeNull()
    // Writes go on being accepted (and dropped) after the disk refused them.
    for (let i = 0; i < 200; i++) {
      rec!.data(i % 2 === 0, randomBytes(64 * 1024))
      await new Promise((r) => setImmediate(r))
    }
    rec!.close()
    // real wait: the closed recorder's last writes reach the disk
    await new Promise((r) => setTimeout(r, 300))
    await expect(readdir(root)).rejects.toMatchObject({ code: 'ENOENT' })
  })
})
