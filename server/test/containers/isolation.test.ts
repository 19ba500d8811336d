import { type ChildProcess, execFile, execFileSync, spawn } from 'node:child_process'
import { chmod, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import path from 'node:path'
import { promisify } from 'node:util'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers } from '../../src/db/schema.ts'
import { bridgeName } from '../../src/infra/containers/engine.ts'
import type { ContainerBackend } from '../../src/infra/containers/index.ts'
import { acceptedPlayer, adminAgent, createGame, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage } from '../helpers/challenge-image.ts'
import { readEntryEventually } from '../helpers/tcp.ts'
import { closeContainerApp, containerChallenge, docker } from './helpers.ts'

const exec = promisify(execFile)
const sh = (cmd: string, ...args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

const canFirewall = (() => {
  try {
    return process.getuid?.() === 0 && sh('iptables', '--version').length > 0 && sh('ip', '-V').length > 0
  } catch {
    return false
  }
})()

/**
 * A private network next to the host: a namespace at 10.250.x.1 behind a veth pair, answering TCP
 * on port 80. Containers on the egress network reach it without the rules (the host routes and
 * masquerades for them), as they would a database on the operator's LAN.
 */
const suffix = Math.floor(Math.random() * 200) + 20
const ns = `pn-lan-${suffix}`
const lan = `10.250.${suffix}.1`
let responder: ChildProcess | null = null
/** A service of the host on all interfaces: what a container must not reach. */
let hostService: Server
let hostPort = 0
let hostAccepted = 0
let serverPort = 0
let t: TestApp
let admin: Agent
let backend: ContainerBackend
/** Team a's container, on the network with egress. */
let egressContainer = ''
const network = `pn-i-${uniqueName('n')}`

beforeAll(async () => {
  if (!canFirewall) return
  sh('ip', 'netns', 'add', ns)
  sh('ip', 'link', 'add', `vl-${suffix}`, 'type', 'veth', 'peer', 'name', `vm-${suffix}`)
  sh('ip', 'link', 'set', `vm-${suffix}`, 'netns', ns)
  sh('ip', 'addr', 'add', `10.250.${suffix}.254/24`, 'dev', `vl-${suffix}`)
  sh('ip', 'link', 'set', `vl-${suffix}`, 'up')
  sh('ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${lan}/24`, 'dev', `vm-${suffix}`)
  sh('ip', 'netns', 'exec', ns, 'ip', 'link', 'set', `vm-${suffix}`, 'up')
  const script = path.join('/tmp', `${ns}.sh`)
  await writeFile(script, '#!/bin/sh\necho hello from the lan\n')
  await chmod(script, 0o755)
  responder = spawn('ip', ['netns', 'exec', ns, '/bin/busybox', 'nc', '-ll', '-p', '80', '-e', script], {
    stdio: 'ignore',
  })
  hostService = createServer((socket) => {
    hostAccepted++
    socket.end('hello from the host\n')
  })
  await new Promise<void>((resolve) => hostService.listen(0, '0.0.0.0', resolve))
  hostPort = (hostService.address() as { port: number }).port
  await buildChallengeImage()
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: network })
  await t.app.listen({ port: 0, host: '0.0.0.0' })
  serverPort = (t.app.server.address() as { port: number }).port
  backend = t.app.deps.infra.containers!
  admin = await adminAgent(t.app)
}, 120_000)

afterAll(async () => {
  if (!canFirewall) return
  responder?.kill()
  hostService.close()
  await backend.isolation.remove()
  await closeContainerApp(t, network)
  for (const cmd of [
    ['ip', 'netns', 'del', ns],
    ['ip', 'link', 'del', `vl-${suffix}`],
  ]) {
    try {
      sh(cmd[0]!, ...cmd.slice(1))
    } catch {
      // already gone
    }
  }
}, 60_000)

/**
 * What a TCP connection from inside the container to `host:port` reads ("no answer" when none).
 * Asynchronous: the host service of this test must keep answering while the container connects.
 */
async function connectFrom(containerId: string, host: string, port: number): Promise<string> {
  try {
    const { stdout } = await exec('docker', [
      'exec',
      containerId,
      '/bin/busybox',
      'timeout',
      '4',
      '/bin/busybox',
      'sh',
      '-c',
      `printf 'GET /api/config HTTP/1.0\\r\\n\\r\\n' | /bin/busybox nc -w 3 ${host} ${port}`,
    ])
    return stdout.trim()
  } catch (err) {
    // nc fails when the peer closes while it still sends; what it read still counts.
    return String((err as { stdout?: string }).stdout ?? '').trim() || 'no answer'
  }
}

const gatewayOf = (name: string) =>
  docker('network', 'inspect', name, '--format', '{{range .IPAM.Config}}{{.Gateway}}{{end}}')

describe.skipIf(!canFirewall)('challenge containers cut off from the host and private networks', () => {
  it('refuses connections from both networks to the host and a private LAN, and still serves players', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const [a, b] = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
    // Team a on the network with egress, team b on the one without.
    expect((await a.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    expect(
      (await admin.put('/api/admin/config', { containerPolicy: { allowEgress: false } })).statusCode,
    ).toBe(200)
    expect((await b.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const rows = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
    const idOf = (teamId: number) => rows.find((r) => r.teamId === teamId)!.containerId

    // The bridges carry the stable names the rules match on.
    expect(
      docker(
        'network',
        'inspect',
        network,
        '--format',
        '{{index .Options "com.docker.network.bridge.name"}}',
      ),
    ).toBe(bridgeName(network, true))

    const docker0 = sh('ip', '-4', '-o', 'addr', 'show', 'docker0').match(/inet (\S+)\//)?.[1]
    for (const [team, net] of [
      [a.teamId, network],
      [b.teamId, `${network}-noegress`],
    ] as const) {
      const id = idOf(team)
      const gateway = gatewayOf(net)
      expect(gateway).toMatch(/^\d+\.\d+\.\d+\.\d+$/)
      // The host: a service on all interfaces, and Pennant itself, through the gateway.
      expect(await connectFrom(id, gateway, hostPort)).toBe('no answer')
      expect(await connectFrom(id, gateway, serverPort)).toBe('no answer')
      // Another of the host's addresses.
      if (docker0) expect(await connectFrom(id, docker0, hostPort)).toBe('no answer')
      // A private network outside the instance.
      expect(await connectFrom(id, lan, 80)).toBe('no answer')
    }
    expect(hostAccepted).toBe(0)
    egressContainer = idOf(a.teamId)

    // Players still reach both through the published port.
    for (const p of [a, b]) {
      const entry = (await p.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json().context
        .instanceEntry
      expect(await readEntryEventually(entry)).toContain(`team=${p.teamId}`)
    }
  })

  it('verifies with a probe container and shows the result to admins', async () => {
    const started = Date.now()
    const status = await backend.isolation.verify(serverPort)
    expect(status).toMatchObject({ state: 'isolated', message: null })
    expect(status.probeMs).toBeGreaterThan(0)
    expect(status.probeMs).toBeLessThanOrEqual(Date.now() - started)
    console.info(`isolation probe: ${status.probeMs} ms`)
    const res = await admin.get('/api/ext/containers/status')
    expect(res.json().isolation).toMatchObject({ state: 'isolated' })
  })

  it('reports a host that answers once the rules are gone', async () => {
    await backend.isolation.remove()
    const status = await backend.isolation.verify(serverPort)
    expect(status.state).toBe('exposed')
    expect(status.message).toMatch(/reached the host/)
    // What the rules refused answers now: the refusals above were the rules, not services down.
    expect(await connectFrom(egressContainer, gatewayOf(network), hostPort)).toBe('hello from the host')
    expect(await connectFrom(egressContainer, lan, 80)).toBe('hello from the lan')
    expect(await connectFrom(egressContainer, gatewayOf(network), serverPort)).toMatch(/^HTTP\/1\.[01] 200/)
    const res = await admin.get('/api/ext/containers/status')
    expect(res.json().isolation).toMatchObject({ state: 'exposed' })
  })
})
