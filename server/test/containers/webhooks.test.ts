import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, eventually, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage } from '../helpers/challenge-image.ts'
import { type Endpoint, startEndpoint } from '../webhooks/endpoint.ts'
import { closeContainerApp, containerChallenge, docker } from './helpers.ts'

let t: TestApp
let admin: Agent
let endpoint: Endpoint
const network = `pn-t-${uniqueName('n')}`
beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp(
    {
      CONTAINER_BACKEND: 'docker',
      CONTAINER_NETWORK: network,
      DISABLE_RATE_LIMIT: 'true',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    },
    { webhookTimings: { pollMs: 100 } },
  )
  admin = await adminAgent(t.app)
  endpoint = await startEndpoint()
  await admin.put('/api/ext/features', { webhooks: true })
  const res = await admin.post('/api/ext/admin/webhooks', {
    url: endpoint.url,
    format: 'json',
    events: ['ContainerFailed'],
  })
  expect(res.statusCode, res.body).toBe(200)
}, 120_000)
afterAll(async () => {
  await endpoint.close()
  await closeContainerApp(t, network)
}, 60_000)

describe('ContainerFailed webhooks', () => {
  it('tell organisers once when a player’s container fails to start', async () => {
    const game = await createGame(admin)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const c = await containerChallenge(admin, game.id, { containerImage: 'pennant-no-such-image:3' })
    expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(400)
    await eventually(async () => expect(endpoint.received).toHaveLength(1))
    expect(endpoint.received[0]!.json).toMatchObject({
      event: 'ContainerFailed',
      game: { id: game.id, title: game.title },
      data: {
        phase: 'start',
        challengeId: c.id,
        challenge: c.title,
        teamId: player.teamId,
        team: expect.any(String),
        image: 'pennant-no-such-image:3',
        reason: expect.stringContaining('pennant-no-such-image:3'),
      },
    })
  })

  it('tell organisers once when a running container is found stopped', async () => {
    const before = endpoint.received.length
    const game = await createGame(admin)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const c = await containerChallenge(admin, game.id)
    expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const [row] = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
    docker('kill', row!.containerId)
    const runtime = t.app.deps.services.containerRuntime
    await runtime.reconcile()
    await runtime.reconcile() // a second look finds it again: still one delivery
    await eventually(async () => expect(endpoint.received).toHaveLength(before + 1))
    // real wait: no second delivery from the webhook sender (a loop on real time; not yet on the clock)
    await new Promise((r) => setTimeout(r, 300))
    expect(endpoint.received).toHaveLength(before + 1)
    expect(endpoint.received.at(-1)!.json).toMatchObject({
      event: 'ContainerFailed',
      data: {
        phase: 'died',
        challenge: c.title,
        teamId: player.teamId,
        reason: 'the container is not running',
      },
    })
  })
})
