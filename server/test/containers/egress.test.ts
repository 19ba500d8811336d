import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { chmod, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage } from '../helpers/challenge-image.ts'
import { readEntryEventually } from '../helpers/tcp.ts'
import { containerChallenge } from './helpers.ts'

const sh = (cmd: string, ...args: string[]) =>
  execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()

/**
 * A stand-in for the internet: a network namespace at 198.18.x.1 (a benchmarking range, never
 * routed) behind a veth pair, answering TCP on port 80. It has no route back to the container
 * networks, so only connections whose source the host masquerades get an answer — exactly what
 * the internet does with a private source address. The isolation rules refuse special-purpose
 * ranges like this one; `CONTAINER_EGRESS_ALLOW` lets its /24 count as the internet here.
 */
const suffix = Math.floor(Math.random() * 200) + 20
const ns = `pn-inet-${suffix}`
const internet = `198.18.${suffix}.1`
let responder: ChildProcess | null = null
let t: TestApp
let admin: Agent
const network = `pn-e-${uniqueName('n')}`

const canMakeHosts = (() => {
  try {
    return process.getuid?.() === 0 && sh('ip', '-V').length > 0
  } catch {
    return false
  }
})()

beforeAll(async () => {
  if (!canMakeHosts) return
  sh('ip', 'netns', 'add', ns)
  sh('ip', 'link', 'add', `vh-${suffix}`, 'type', 'veth', 'peer', 'name', `vi-${suffix}`)
  sh('ip', 'link', 'set', `vi-${suffix}`, 'netns', ns)
  sh('ip', 'addr', 'add', `198.18.${suffix}.254/24`, 'dev', `vh-${suffix}`)
  sh('ip', 'link', 'set', `vh-${suffix}`, 'up')
  sh('ip', 'netns', 'exec', ns, 'ip', 'addr', 'add', `${internet}/24`, 'dev', `vi-${suffix}`)
  sh('ip', 'netns', 'exec', ns, 'ip', 'link', 'set', `vi-${suffix}`, 'up')
  const script = path.join('/tmp', `${ns}.sh`)
  await writeFile(script, '#!/bin/sh\necho hello from the internet\n')
  await chmod(script, 0o755)
  responder = spawn('ip', ['netns', 'exec', ns, '/bin/busybox', 'nc', '-ll', '-p', '80', '-e', script], {
    stdio: 'ignore',
  })
  await buildChallengeImage()
  t = await createTestApp({
    CONTAINER_BACKEND: 'docker',
    CONTAINER_NETWORK: network,
    CONTAINER_EGRESS_ALLOW: `198.18.${suffix}.0/24`,
  })
  admin = await adminAgent(t.app)
}, 120_000)

afterAll(async () => {
  if (!canMakeHosts) return
  responder?.kill()
  await t.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
  await t.app.deps.infra.containers?.isolation.remove()
  await t.close()
  for (const cmd of [
    ['ip', 'netns', 'del', ns],
    ['ip', 'link', 'del', `vh-${suffix}`],
    ['docker', 'network', 'rm', network],
    ['docker', 'network', 'rm', `${network}-noegress`],
  ]) {
    try {
      sh(cmd[0]!, ...cmd.slice(1))
    } catch {
      // already gone
    }
  }
}, 60_000)

describe.skipIf(!canMakeHosts)('the switch for challenge networks without internet egress', () => {
  it('lets containers reach the internet by default, and not once an admin turns egress off', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const [a, b] = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
    const reach = async (teamId: number) => {
      const rows = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
      const row = rows.find((r) => r.teamId === teamId)!
      try {
        return sh(
          'docker',
          'exec',
          row.containerId,
          '/bin/busybox',
          'timeout',
          '4',
          '/bin/busybox',
          'nc',
          internet,
          '80',
        )
      } catch {
        return 'no answer'
      }
    }

    expect((await a.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    expect(await reach(a.teamId)).toBe('hello from the internet')

    expect(
      (await admin.put('/api/admin/config', { containerPolicy: { allowEgress: false } })).statusCode,
    ).toBe(200)
    expect((await b.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    expect(await reach(b.teamId)).toBe('no answer')
    // Players still reach it through its published port.
    const entry = (await b.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json().context.instanceEntry
    expect(await readEntryEventually(entry)).toContain(`team=${b.teamId}`)
  })
})
