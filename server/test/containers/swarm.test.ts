import { execFileSync } from 'node:child_process'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers, flags, gameInstances } from '../../src/db/schema.ts'
import { bridgeName } from '../../src/infra/containers/engine.ts'
import { acceptedPlayer, adminAgent, createGame, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage } from '../helpers/challenge-image.ts'
import { readEntryEventually } from '../helpers/tcp.ts'
import { listen, openSocket, Refused, readAll } from '../helpers/ws.ts'
import { containerChallenge } from './helpers.ts'

const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

let t: TestApp
let admin: Agent
/** Whether this file made the swarm (and so leaves it). */
let created = false
const network = `pn-s-${uniqueName('n')}`

beforeAll(async () => {
  // A swarm network lets go of its config network some while after the last test of a file, so
  // each run removes the config networks earlier runs could not.
  for (const id of docker('network', 'ls', '-q', '--filter', 'name=pn-s-', '--filter', 'driver=null').split(
    '\n',
  )) {
    try {
      if (id) docker('network', 'rm', id)
    } catch {
      // in use by a run going on now
    }
  }
  await buildChallengeImage()
  if (docker('info', '--format', '{{.Swarm.LocalNodeState}}') !== 'active') {
    docker('swarm', 'init', '--advertise-addr', '127.0.0.1')
    created = true
  }
  t = await createTestApp({ CONTAINER_BACKEND: 'swarm', CONTAINER_NETWORK: network })
  admin = await adminAgent(t.app)
}, 120_000)

afterAll(async () => {
  await t.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
  await t.app.deps.infra.containers?.isolation.remove()
  await t.close()
  if (created) docker('swarm', 'leave', '--force')
  // The swarm network goes once its last task has left, and its config network only after it.
  // The isolation rules make both networks (with and without egress) at the first start.
  for (const n of [
    `${network}-swarm`,
    `${network}-swarm-config`,
    `${network}-noegress-swarm`,
    `${network}-noegress-swarm-config`,
  ]) {
    for (let tries = 0; tries < 20; tries++) {
      try {
        docker('network', 'rm', n)
        break
      } catch {
        try {
          docker('network', 'inspect', n)
        } catch {
          break // gone (or never made)
        }
        // real wait: polling Docker Swarm until the service is gone
        await new Promise((r) => setTimeout(r, 500))
      }
    }
  }
}, 60_000)

describe('a team container on Docker Swarm', () => {
  it('runs as a service with the team’s flag and limits, published on the node, and is removed', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { memoryLimit: 80, cpuCount: 3 })
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/container/${c.id}`

    const started = await player.agent.post(url)
    expect(started.statusCode, started.body).toBe(200)
    const info = started.json()
    expect(info.status).toBe('Running')
    expect(info.entry).toMatch(/^127\.0\.0\.1:\d+$/)
    // The node's bridge has the name the rules match on; this server cannot set them on other
    // nodes, and says so.
    const bridge = bridgeName(`${network}-swarm`, true)
    expect(execFileSync('ip', ['link', 'show', bridge], { encoding: 'utf8' })).toContain(bridge)
    expect(t.app.deps.infra.containers!.isolation.status()).toMatchObject({
      state: 'unverified',
      message: expect.stringMatching(/every swarm node/),
    })

    const [instance] = await t.app.deps.db
      .select()
      .from(gameInstances)
      .where(eq(gameInstances.challengeId, c.id))
    const [flag] = await t.app.deps.db.select().from(flags).where(eq(flags.id, instance!.flagId!))
    expect(await readEntryEventually(info.entry)).toBe(
      `flag=${flag!.flag} team=${player.teamId} pennant=${flag!.flag}`,
    )

    const [row] = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
    const spec = JSON.parse(docker('service', 'inspect', row!.containerId, '--format', '{{json .Spec}}'))
    expect(spec.TaskTemplate.Resources.Limits).toMatchObject({
      MemoryBytes: 80 * 1024 * 1024,
      NanoCPUs: 300_000_000,
    })
    expect(spec.TaskTemplate.RestartPolicy.Condition).toBe('none')
    expect(spec.Labels['pennant.team']).toBe(String(player.teamId))
    expect(row!.ip).toMatch(/^\d+\.\d+\.\d+\.\d+$/)

    await t.app.deps.db
      .update(gameInstances)
      .set({ lastContainerOperation: new Date(Date.now() - 11_000) })
      .where(eq(gameInstances.challengeId, c.id))
    expect((await player.agent.delete(url)).statusCode).toBe(200)
    expect(() => docker('service', 'inspect', row!.containerId)).toThrow()
  })

  it('sends starts half the swarm nodes’ CPUs at a time', async () => {
    const cpus = Number(docker('info', '--format', '{{.NCPU}}'))
    expect(await t.app.deps.services.containerRuntime.startConcurrency()).toEqual({
      starts: Math.max(1, Math.floor(cpus / 2)),
      from: `half the engine's ${cpus} CPUs`,
    })
  })

  it('names a missing image', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { containerImage: 'pennant-no-such-image:3' })
    const player = await acceptedPlayer(t.app, admin, game.id)
    const res = await player.agent.post(`/api/game/${game.id}/container/${c.id}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toContain('pennant-no-such-image:3')
    expect(docker('service', 'ls', '-q', '--filter', `label=pennant.challenge=${c.id}`)).toBe('')
  })
})

describe('a team container on Docker Swarm behind the platform proxy', () => {
  it('carries the proxy to the service’s port on its node', async () => {
    const proxied = await createTestApp({
      CONTAINER_BACKEND: 'swarm',
      CONTAINER_NETWORK: network,
      CONTAINER_PORT_MAPPING: 'PlatformProxy',
    })
    try {
      const padmin = await adminAgent(proxied.app)
      const base = await listen(proxied.app)
      const game = await createGame(padmin)
      const c = await containerChallenge(padmin, game.id)
      const player = await acceptedPlayer(proxied.app, padmin, game.id)
      const started = await player.agent.post(`/api/game/${game.id}/container/${c.id}`)
      expect(started.statusCode, started.body).toBe(200)
      const entry = started.json().entry as string
      expect(entry).toMatch(/^[0-9a-f-]{36}$/)
      const deadline = Date.now() + 20_000
      let text = ''
      while (!text.includes('flag=flag{') && Date.now() < deadline) {
        try {
          text = (await readAll(await openSocket(`${base}/api/proxy/${entry}`))).bytes.toString()
        } catch (err) {
          if (!(err instanceof Refused) || err.status !== 418) throw err
        }
        // real wait: polling a real Swarm task until it answers
        if (!text) await new Promise((r) => setTimeout(r, 300))
      }
      expect(text).toContain(`team=${player.teamId}`)
      expect(text).toMatch(/^flag=flag\{/)
    } finally {
      await proxied.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
      await proxied.close()
    }
  }, 90_000)
})
