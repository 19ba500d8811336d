import { execFileSync } from 'node:child_process'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers, flags, gameInstances } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage } from '../helpers/challenge-image.ts'
import { containerChallenge, readEntryEventually } from './helpers.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: `pn-t-${uniqueName('n')}` })
  admin = await adminAgent(t.app)
}, 120_000)
afterAll(async () => {
  // Whatever a failed test left running goes with it.
  await t.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
  await t.close()
})

const docker = (...args: string[]) => execFileSync('docker', args, { encoding: 'utf8' }).trim()

describe('a team container on Docker', () => {
  it('starts with the team’s own flag, answers at its entry, and is destroyed', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/container/${c.id}`

    const started = await player.agent.post(url)
    expect(started.statusCode, started.body).toBe(200)
    const info = started.json()
    expect(info.status).toBe('Running')
    expect(info.entry).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(info.expectStopAt - info.startedAt).toBe(120 * 60_000)

    const [instance] = await t.app.deps.db
      .select()
      .from(gameInstances)
      .where(eq(gameInstances.challengeId, c.id))
    const [flag] = await t.app.deps.db.select().from(flags).where(eq(flags.id, instance!.flagId!))
    const answer = await readEntryEventually(info.entry)
    expect(answer).toBe(`flag=${flag!.flag} team=${player.teamId} pennant=${flag!.flag}`)

    const detail = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
    expect(detail.context.instanceEntry).toBe(info.entry)
    expect(detail.context.closeTime).toBe(info.expectStopAt)

    // The flag from the container is the one the judge takes.
    const submitted = await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: flag!.flag })
    await t.app.deps.services.judge.drain()
    const status = await player.agent.get(
      `/api/game/${game.id}/challenges/${c.id}/status/${submitted.json()}`,
    )
    expect(status.json()).toBe('Accepted')

    const [row] = await t.app.deps.db
      .select()
      .from(containers)
      .where(eq(containers.id, instance!.containerId!))
    expect(docker('inspect', row!.containerId, '--format', '{{.State.Running}}')).toBe('true')

    // Destroying within 10 s of the start is throttled.
    const early = await player.agent.delete(url)
    expect(early.statusCode).toBe(429)
    await t.app.deps.db
      .update(gameInstances)
      .set({ lastContainerOperation: new Date(Date.now() - 11_000) })
      .where(eq(gameInstances.challengeId, c.id))
    const destroyed = await player.agent.delete(url)
    expect(destroyed.statusCode, destroyed.body).toBe(200)
    expect(() => docker('inspect', row!.containerId)).toThrow()
    const after = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
    expect(after.context.instanceEntry).toBeNull()

    const events = (await admin.get(`/api/game/${game.id}/events`)).json()
    expect(events.map((e: { type: string }) => e.type)).toEqual(
      expect.arrayContaining(['ContainerStart', 'ContainerDestroy']),
    )
  })
})
