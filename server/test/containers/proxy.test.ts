import { randomBytes, randomUUID } from 'node:crypto'
import os from 'node:os'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type WebSocket from 'ws'
import { containers, flags, gameInstances } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, registeredUser, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage, ECHO_PORT } from '../helpers/challenge-image.ts'
import { listen, openSocket, Refused, readAll, readBytes } from '../helpers/ws.ts'
import { closeContainerApp, containerChallenge, docker } from './helpers.ts'

let t: TestApp
let admin: Agent
let base: string
const network = `pn-t-${uniqueName('n')}`
const LIMIT = 3
beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({
    CONTAINER_BACKEND: 'docker',
    CONTAINER_NETWORK: network,
    CONTAINER_PORT_MAPPING: 'PlatformProxy',
    CONTAINER_PROXY_CONNECTION_LIMIT: String(LIMIT),
  })
  admin = await adminAgent(t.app)
  base = await listen(t.app)
}, 120_000)
afterAll(async () => {
  await closeContainerApp(t, network)
}, 60_000)

/** A game with one container challenge and a player whose container runs; its entry. */
async function runningContainer(body: Record<string, unknown> = {}) {
  const game = await createGame(admin)
  const c = await containerChallenge(admin, game.id, body)
  const player = await acceptedPlayer(t.app, admin, game.id)
  const res = await player.agent.post(`/api/game/${game.id}/container/${c.id}`)
  expect(res.statusCode, res.body).toBe(200)
  const entry = res.json().entry as string
  return { game, c, player, entry }
}

/** Opens the proxy to `entry`, retrying while the service inside is still coming up. */
async function connectEventually(path: string, agent?: Agent): Promise<WebSocket> {
  const deadline = Date.now() + 10_000
  for (;;) {
    try {
      return await openSocket(`${base}${path}`, agent)
    } catch (err) {
      if (!(err instanceof Refused) || err.status !== 418 || Date.now() > deadline) throw err
      // real wait: polling a real container until it listens
      await new Promise((r) => setTimeout(r, 200))
    }
  }
}

/** The flag service's whole answer through the proxy. */
async function flagThrough(path: string, agent?: Agent): Promise<string> {
  for (let tries = 0; ; tries++) {
    const ws = await connectEventually(path, agent)
    const { bytes } = await readAll(ws)
    // nc may accept before its script runs; an empty answer means try again.
    if (bytes.length || tries > 20) return bytes.toString().trim()
    // real wait: polling nc in a real container until its script answers
    await new Promise((r) => setTimeout(r, 200))
  }
}

describe('PlatformProxy port mapping', () => {
  it('reports the mapping and hands out container ids as entries, publishing nothing', async () => {
    expect((await admin.get('/api/config')).json().portMapping).toBe('PlatformProxy')
    const { entry } = await runningContainer()
    expect(entry).toMatch(/^[0-9a-f-]{36}$/)
    const [row] = await t.app.deps.db.select().from(containers).where(eq(containers.id, entry))
    expect(row).toMatchObject({ isProxy: true, publicPort: null, publicIp: null })
    const ports = JSON.parse(docker('inspect', '-f', '{{json .NetworkSettings.Ports}}', row!.containerId))
    // Declared, but bound to no host port.
    expect(Object.values(ports ?? {}).every((bound) => bound === null)).toBe(true)
  }, 60_000)

  it('carries the container’s answer to the player: the team’s own flag', async () => {
    const { entry, c, player } = await runningContainer()
    const [own] = await t.app.deps.db
      .select({ flag: flags.flag })
      .from(gameInstances)
      .innerJoin(flags, eq(flags.id, gameInstances.flagId))
      .where(eq(gameInstances.containerId, entry))
    expect(own?.flag).toMatch(/^flag\{/)
    const text = await flagThrough(`/api/proxy/${entry}`)
    expect(text).toContain(`flag=${own!.flag} team=${player.teamId}`)
    expect(c.id).toBeGreaterThan(0)
  }, 60_000)

  it('carries bytes both ways, unchanged, through the echo service', async () => {
    const { entry } = await runningContainer({ containerExposePort: ECHO_PORT })
    const ws = await connectEventually(`/api/proxy/${entry}`)
    const payload = randomBytes(3 * 1024 * 1024 + 17)
    const back = readBytes(ws, payload.length)
    // In pieces of different sizes, as a client would write them.
    for (let at = 0, n = 1; at < payload.length; n = (n * 7) % 100_000 || 1) {
      ws.send(payload.subarray(at, at + n + 1))
      at += n + 1
    }
    expect((await back).equals(payload)).toBe(true)
    const closed = readAll(ws)
    ws.close()
    await closed
  }, 60_000)

  it('holds a slow reader back instead of buffering for it, and delivers everything after', async () => {
    const { entry } = await runningContainer({ containerExposePort: ECHO_PORT })
    const ws = await connectEventually(`/api/proxy/${entry}`)
    const chunk = randomBytes(1024 * 1024)
    const total = 96
    const received: Buffer[] = []
    let got = 0
    ws.on('message', (d: Buffer) => {
      received.push(d)
      got += d.length
    })
    // Stop reading: everything sent must now wait somewhere on the way.
    ws.pause()
    for (let i = 0; i < total; i++) ws.send(chunk)
    // Wait until the flow stalls: the client's own queue stops shrinking.
    let last = -1
    for (let stable = 0; stable < 4; ) {
      // real wait: watching real TCP back-pressure settle
      await new Promise((r) => setTimeout(r, 250))
      stable = ws.bufferedAmount === last ? stable + 1 : 0
      last = ws.bufferedAmount
    }
    // The server holds about a megabyte per direction; socket buffers along the way hold some
    // more, and the rest waits at the client. Without back-pressure the server would hold it.
    expect(await t.app.deps.services.proxy.buffered()).toBeLessThan(3 * 1024 * 1024)
    expect(ws.bufferedAmount).toBeGreaterThan(32 * 1024 * 1024)
    expect(got).toBe(0)
    ws.resume()
    const deadline = Date.now() + 30_000
    // real wait: polling the bytes of a real socket
    while (got < total * chunk.length && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50))
    expect(got).toBe(total * chunk.length)
    const all = Buffer.concat(received)
    for (let i = 0; i < total; i += 19)
      expect(all.subarray(i * chunk.length, (i + 1) * chunk.length).equals(chunk)).toBe(true)
    ws.close()
  }, 90_000)

  it('answers 204 without an upgrade, 404 for unknown or malformed ids, in the error shape', async () => {
    const { entry } = await runningContainer()
    const plain = await admin.get(`/api/proxy/${entry}`)
    expect(plain.statusCode).toBe(204)
    expect(plain.body).toBe('')
    for (const id of [randomUUID(), 'not-a-guid']) {
      const res = await admin.get(`/api/proxy/${id}`)
      expect(res.statusCode).toBe(404)
      expect(res.json()).toEqual({ title: 'Container not found', status: 404 })
      await expect(openSocket(`${base}/api/proxy/${id}`)).rejects.toMatchObject({
        status: 404,
        body: { status: 404 },
      })
    }
  }, 60_000)

  it('answers 418 when the container does not answer on its port', async () => {
    // Nothing listens on 7000 inside: the connection is refused.
    const { entry } = await runningContainer({ containerExposePort: 7000 })
    const refused = await openSocket(`${base}/api/proxy/${entry}`).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(Refused)
    expect((refused as Refused).status).toBe(418)
    expect((refused as Refused).body).toMatchObject({ status: 418 })
    expect((refused as Refused).body.title).toMatch(/Could not connect to the container: .*ECONNREFUSED/)
    expect(t.app.deps.services.proxy.connections(entry)).toBe(0)
  }, 60_000)

  it(`accepts ${LIMIT} connections per container at once, refuses the next with 400, and frees slots`, async () => {
    const { entry } = await runningContainer({ containerExposePort: ECHO_PORT })
    const path = `/api/proxy/${entry}`
    const open = [await connectEventually(path)]
    for (let i = 1; i < LIMIT; i++) open.push(await openSocket(`${base}${path}`))
    expect(t.app.deps.services.proxy.connections(entry)).toBe(LIMIT)
    const over = await openSocket(`${base}${path}`).catch((e: unknown) => e)
    expect(over).toMatchObject({ status: 400, body: { status: 400 } })
    expect((over as Refused).body.title).toContain(`${LIMIT} open connections`)
    // Each still works.
    const echoed = readBytes(open[0]!, 5)
    open[0]!.send(Buffer.from('hello'))
    expect((await echoed).toString()).toBe('hello')
    const closed = readAll(open[0]!)
    open[0]!.close()
    await closed
    // real wait: a real socket's close reaches the proxy
    await new Promise((r) => setTimeout(r, 100))
    expect(t.app.deps.services.proxy.connections(entry)).toBe(LIMIT - 1)
    const again = await openSocket(`${base}${path}`)
    for (const ws of [...open.slice(1), again]) ws.close()
  }, 60_000)

  it('closes a connection when its time is up (CONTAINER_PROXY_MAX_SECONDS, 3 s here)', async () => {
    const { entry } = await runningContainer({ containerExposePort: ECHO_PORT })
    // The setting as CONTAINER_PROXY_MAX_SECONDS=3 would make it, for this test's connections only.
    const proxyConfig = t.app.deps.config.containers.proxy
    proxyConfig.maxConnectionMs = 3000
    const ws = await connectEventually(`/api/proxy/${entry}`).finally(() => {
      proxyConfig.maxConnectionMs = 30 * 60_000
    })
    const started = Date.now()
    const { code, reason } = await readAll(ws)
    const took = Date.now() - started
    expect(code).toBe(1000)
    expect(reason).toBe('connection time limit reached')
    expect(took).toBeGreaterThan(2500)
    expect(took).toBeLessThan(6000)
    // real wait: a real socket's close reaches the proxy
    await new Promise((r) => setTimeout(r, 100))
    expect(t.app.deps.services.proxy.connections(entry)).toBe(0)
  }, 30_000)
})

describe('removing a proxied container', () => {
  it('ends its open connections at once and forgets its id', async () => {
    const { entry, game, c, player } = await runningContainer({ containerExposePort: ECHO_PORT })
    const ws = await connectEventually(`/api/proxy/${entry}`)
    const closed = readAll(ws)
    // The 10-second turn between a start and a removal, as if it had passed.
    await t.app.deps.db
      .update(gameInstances)
      .set({ lastContainerOperation: new Date(Date.now() - 11_000) })
      .where(eq(gameInstances.challengeId, c.id))
    const removed = await player.agent.delete(`/api/game/${game.id}/container/${c.id}`)
    expect(removed.statusCode, removed.body).toBe(200)
    // Docker's removal usually closes the TCP side first (1005, no code); otherwise the proxy
    // closes it itself (1001). Either way it ends now, not at the time cap.
    const { code } = await closed
    expect([1001, 1005]).toContain(code)
    expect(t.app.deps.services.proxy.connections(entry)).toBe(0)
    // Forgotten at once (remembered, it would be dialled and answer 418).
    await expect(openSocket(`${base}/api/proxy/${entry}`)).rejects.toMatchObject({ status: 404 })
  }, 60_000)
})

describe('the proxy process', () => {
  it('carries connections apart from the API, at a lower priority, and is replaced when it dies', async () => {
    const { entry } = await runningContainer({ containerExposePort: ECHO_PORT })
    const { proxy } = t.app.deps.services
    const ws = await connectEventually(`/api/proxy/${entry}`)
    const pid = proxy.processId()
    expect(pid).toBeGreaterThan(0)
    expect(pid).not.toBe(process.pid)
    expect(os.getPriority(pid)).toBeGreaterThan(os.getPriority())
    expect(proxy.connections(entry)).toBe(1)
    const closed = readAll(ws)
    process.kill(pid!, 'SIGKILL')
    // Its connections end with it (no close frame), and their slots are free again.
    expect((await closed).code).toBe(1006)
    // real wait: polling until the killed process's sockets are gone
    for (let i = 0; i < 50 && proxy.connections(entry) > 0; i++) await new Promise((r) => setTimeout(r, 50))
    expect(proxy.connections(entry)).toBe(0)
    // A new process carries the next connections.
    const again = await connectEventually(`/api/proxy/${entry}`)
    expect(proxy.processId()).not.toBe(pid)
    const echoed = readBytes(again, 5)
    again.send(Buffer.from('hello'))
    expect((await echoed).toString()).toBe('hello')
    const done = readAll(again)
    again.close()
    await done
  }, 60_000)
})

describe('the test container proxy (noinst)', () => {
  it('is for admins only and for test containers only', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const started = await admin.post(`/api/edit/games/${game.id}/challenges/${c.id}/container`)
    expect(started.statusCode, started.body).toBe(200)
    const testEntry = started.json().entry as string
    expect(testEntry).toMatch(/^[0-9a-f-]{36}$/)
    const path = `/api/proxy/noinst/${testEntry}`

    await expect(openSocket(`${base}${path}`)).rejects.toMatchObject({ status: 401, body: { status: 401 } })
    const player = await registeredUser(t.app)
    await expect(openSocket(`${base}${path}`, player.agent)).rejects.toMatchObject({ status: 403 })
    expect((await admin.get(path)).statusCode).toBe(204)
    const text = await flagThrough(path, admin)
    expect(text).toContain('flag=flag{')
    // Each route carries its own kind only.
    await expect(openSocket(`${base}/api/proxy/${testEntry}`)).rejects.toMatchObject({ status: 404 })
    const team = await runningContainer()
    await expect(openSocket(`${base}/api/proxy/noinst/${team.entry}`, admin)).rejects.toMatchObject({
      status: 404,
    })
  }, 60_000)
})

describe('without PlatformProxy', () => {
  it('answers 400: this server does not proxy', async () => {
    const plain = await createTestApp()
    try {
      const res = await plain.app.inject({ method: 'GET', url: `/api/proxy/${randomUUID()}` })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toEqual({ title: 'This server does not proxy container connections', status: 400 })
      expect((await plain.app.inject({ method: 'GET', url: '/api/config' })).json().portMapping).toBe(
        'Default',
      )
    } finally {
      await plain.close()
    }
  })
})
