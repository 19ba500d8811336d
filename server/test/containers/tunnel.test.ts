import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { writeFile } from 'node:fs/promises'
import { connect } from 'node:net'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flags, gameInstances } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage, ECHO_PORT } from '../helpers/challenge-image.ts'
import { readEntryEventually } from '../helpers/tcp.ts'
import { listen } from '../helpers/ws.ts'
import { closeContainerApp, containerChallenge } from './helpers.ts'

const SITE = 'http://ctf.example.org'
let t: TestApp
let admin: Agent
let base: string
let script: string
const children: ChildProcess[] = []
const network = `pn-t-${uniqueName('n')}`

beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({
    CONTAINER_BACKEND: 'docker',
    CONTAINER_NETWORK: network,
    CONTAINER_PORT_MAPPING: 'PlatformProxy',
  })
  admin = await adminAgent(t.app)
  base = await listen(t.app)
  // The player's copy, as the contest site serves it.
  const res = await t.app.inject({ method: 'GET', url: '/api/ext/tunnel.mjs' })
  expect(res.statusCode).toBe(200)
  expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8')
  script = path.join(t.dataDir, 'tunnel.mjs')
  await writeFile(script, res.rawPayload)
}, 120_000)
afterAll(async () => {
  for (const c of children) c.kill()
  await closeContainerApp(t, network)
}, 60_000)

/** Runs `node tunnel.mjs …` and waits for the line that matches `ready`. */
function runTunnel(
  args: string[],
  ready: RegExp,
): Promise<{ match: RegExpMatchArray; output: () => string }> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let out = ''
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tunnel did not start: ${out}`)), 10_000)
    const onData = (d: Buffer) => {
      out += d.toString()
      const match = out.match(ready)
      if (match) {
        clearTimeout(timer)
        resolve({ match, output: () => out })
      }
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`tunnel exited with ${code}: ${out}`)))
  })
}

async function teamContainer(port?: number) {
  const game = await createGame(admin)
  const c = await containerChallenge(admin, game.id, port ? { containerExposePort: port } : {})
  const player = await acceptedPlayer(t.app, admin, game.id)
  const res = await player.agent.post(`/api/game/${game.id}/container/${c.id}`)
  expect(res.statusCode, res.body).toBe(200)
  const entry = res.json().entry as string
  const [own] = await t.app.deps.db
    .select({ flag: flags.flag })
    .from(gameInstances)
    .innerJoin(flags, eq(flags.id, gameInstances.flagId))
    .where(eq(gameInstances.containerId, entry))
  return { entry, flag: own?.flag ?? null, teamId: player.teamId }
}

/** Sends `payload` to a local port and reads as many bytes back. */
function echoThrough(address: string, payload: Buffer): Promise<Buffer> {
  const cut = address.lastIndexOf(':')
  return new Promise((resolve, reject) => {
    const socket = connect({ host: address.slice(0, cut), port: Number(address.slice(cut + 1)) })
    const chunks: Buffer[] = []
    let got = 0
    socket.setTimeout(20_000, () => socket.destroy(new Error(`only ${got} bytes came back`)))
    socket.on('data', (d) => {
      chunks.push(d)
      got += d.length
      if (got >= payload.length) {
        socket.end()
        resolve(Buffer.concat(chunks))
      }
    })
    socket.on('error', reject)
    socket.write(payload)
  })
}

describe('the tunnel command (GET /api/ext/tunnel.mjs)', () => {
  it('speaks the local daemon API and carries a local port to the team’s container and its flag', async () => {
    const { match } = await runTunnel(['--api', '127.0.0.1:0', '--allow', SITE], /daemon API on (http:\S+)/)
    const api = match[1]!
    const call = (method: string, url: string, origin: string | null, body?: unknown) =>
      fetch(`${api}${url}`, {
        method,
        headers: {
          ...(origin ? { origin } : {}),
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        body: body ? JSON.stringify(body) : undefined,
      })

    const version = await call('GET', '/version', SITE)
    expect(await version.json()).toEqual({ version: '0.5.0' })
    expect(version.headers.get('access-control-allow-origin')).toBe(SITE)

    // A site the user did not allow asks, and waits.
    const stranger = 'http://elsewhere.example'
    expect((await call('GET', '/connect', stranger)).status).toBe(403)
    const ask = { name: 'Pennant::CTF', features: ['basic', 'pingfall'], host: 'IN_HEADER', state: 'pending' }
    expect((await call('POST', '/connect', stranger, ask)).status).toBe(201)
    expect((await call('GET', '/connect', stranger)).status).toBe(201)
    expect((await call('GET', '/pool', stranger)).status).toBe(403)

    // The contest site is usable at once.
    expect((await call('POST', '/connect', SITE, ask)).status).toBe(202)
    expect((await call('GET', '/connect', SITE)).status).toBe(202)
    expect((await call('OPTIONS', '/pool', SITE)).status).toBe(204)

    const team = await teamContainer()
    const remote = `${base}/api/proxy/${team.entry}`
    const added = await call('POST', '/pool', SITE, { remote, local: '127.0.0.1:0' })
    expect(added.status).toBe(201)
    const { local } = (await added.json()) as { local: string }
    expect(local).toMatch(/^127\.0\.0\.1:\d+$/)
    // Adding the same instance again gives the same port.
    expect(await (await call('POST', '/pool', SITE, { remote, local: '127.0.0.1:0' })).json()).toEqual({
      remote,
      local,
    })
    expect(await (await call('GET', '/pool', SITE)).json()).toEqual([{ remote, local }])
    expect(await (await call('GET', '/pool', stranger)).status).toBe(403)

    // local port → tunnel → proxy → container → the team's own flag. The file's first proxied
    // connection also waits for the proxy's child process to come up, which on a loaded CI
    // machine (nine container files at once, each child compiled by tsx) has taken over 10 s.
    const text = await readEntryEventually(local, 30_000)
    expect(team.flag).toMatch(/^flag\{/)
    expect(text).toContain(`flag=${team.flag} team=${team.teamId}`)

    expect((await call('DELETE', '/pool', SITE, { local })).status).toBe(200)
    expect(await (await call('GET', '/pool', SITE)).json()).toEqual([])
    await expect(echoThrough(local, Buffer.from('x'))).rejects.toMatchObject({ code: 'ECONNREFUSED' })
    expect((await call('DELETE', '/pool', SITE, { local })).status).toBe(404)
    expect((await call('POST', '/pool', SITE, { remote: 'http://x', local: '127.0.0.1:0' })).status).toBe(400)
  }, 90_000)

  it('forwards one container directly, bytes both ways unchanged', async () => {
    const echo = await teamContainer(ECHO_PORT)
    const { match } = await runTunnel([`${base}/api/proxy/${echo.entry}`], /listening on (\S+) →/)
    const local = match[1]!
    // The echo service may still be starting: retry the first small exchange.
    const deadline = Date.now() + 10_000
    for (;;) {
      try {
        expect((await echoThrough(local, Buffer.from('ping'))).toString()).toBe('ping')
        break
      } catch (err) {
        if (Date.now() > deadline) throw err
        // real wait: polling the tunnel process until it forwards
        await new Promise((r) => setTimeout(r, 200))
      }
    }
    const payload = randomBytes(4 * 1024 * 1024 + 3)
    expect((await echoThrough(local, payload)).equals(payload)).toBe(true)
  }, 60_000)

  it('closes the local connection when the proxy refuses, and says why', async () => {
    const { match, output } = await runTunnel(
      [`${base}/api/proxy/00000000-0000-4000-8000-000000000000`],
      /listening on (\S+) →/,
    )
    const local = match[1]!
    const cut = local.lastIndexOf(':')
    const got = await new Promise<string>((resolve, reject) => {
      const s = connect({ host: local.slice(0, cut), port: Number(local.slice(cut + 1)) })
      let text = ''
      s.on('data', (d) => {
        text += d.toString()
      })
      s.on('close', () => resolve(text))
      s.on('error', reject)
    })
    expect(got).toBe('')
    // real wait: nothing comes back over a real socket
    await new Promise((r) => setTimeout(r, 100))
    expect(output()).toMatch(/cannot reach .*404/)
  }, 30_000)
})
