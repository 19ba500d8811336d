import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LABEL } from '../../src/infra/containers/index.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  eventually,
  expectAdminOnly,
  registeredUser,
  setRole,
  staticChallenge,
  uniqueName,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { BROKEN_IMAGES, buildChallengeImage, CHALLENGE_IMAGE } from '../helpers/challenge-image.ts'
import { closeContainerApp, containerChallenge, docker } from './helpers.ts'

// The organisers' challenge check against the real engine (a good image and three broken ones),
// one host port per instance on every address family, and the instance output route.

let t: TestApp
let admin: Agent
const network = `pn-t-${uniqueName('n')}`
beforeAll(async () => {
  await buildChallengeImage()
  // The check's waits, shortened: 3 s for the port to answer, 2 s of staying up.
  t = await createTestApp({
    CONTAINER_BACKEND: 'docker',
    CONTAINER_NETWORK: network,
    // Short, but not so short that a busy machine (the whole suite beside it) fails a good image.
    CONTAINER_CHECK_LISTEN: '20',
    CONTAINER_CHECK_UPTIME: '8',
  })
  admin = await adminAgent(t.app)
}, 240_000)
afterAll(async () => {
  await closeContainerApp(t, network)
}, 60_000)

interface Step {
  step: string
  status: 'passed' | 'failed' | 'skipped'
  detail: string
}

async function check(gameId: number, challengeId: number, agent = admin) {
  return agent.post(`/api/edit/games/${gameId}/challenges/${challengeId}/check`)
}

async function checkOf(image: string, body: Record<string, unknown> = {}) {
  const game = await createGame(admin)
  const c = await containerChallenge(admin, game.id, { containerImage: image, ...body })
  const res = await check(game.id, c.id)
  expect(res.statusCode, res.body).toBe(200)
  const result = res.json() as { passed: boolean; steps: Step[] }
  // The check's container is gone, whatever the outcome (other checkouts' challenges share ids).
  const platform = await t.app.deps.services.containerRuntime.platform()
  const ours = [
    '--filter',
    `label=${LABEL.platform}=${platform}`,
    '--filter',
    `label=${LABEL.challenge}=${c.id}`,
  ]
  expect(docker('ps', '-aq', ...ours)).toBe('')
  return { ...result, step: (name: string) => result.steps.find((s) => s.step === name)! }
}

// Each check runs a container for seconds; on a busy machine, starts alone can take many.
describe('the challenge check', { timeout: 120_000 }, () => {
  it('passes a good image, and finds the flag handed to it in what it serves', async () => {
    const r = await checkOf(CHALLENGE_IMAGE, { flagTemplate: 'flag{check_[GUID]}' })
    expect(r.steps.map((s) => [s.step, s.status])).toEqual([
      ['image', 'passed'],
      ['start', 'passed'],
      ['listen', 'passed'],
      ['uptime', 'passed'],
      ['memory', 'passed'],
      ['flag', 'passed'],
    ])
    expect(r.passed).toBe(true)
    expect(r.step('flag').detail).toMatch(/^flag\{check_[0-9a-f-]{36}\}$/)
    expect(r.step('uptime').detail).toMatch(/^running after \d/)
  })

  it('reports an image that exits, with its exit code', async () => {
    const r = await checkOf(BROKEN_IMAGES.exits)
    expect(r.passed).toBe(false)
    expect(r.step('listen').status).toBe('passed')
    expect(r.step('uptime')).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/exited with code 3/),
    })
    expect(r.step('memory').status).toBe('passed')
  })

  it('reports an image listening on another port than the declared one', async () => {
    const r = await checkOf(BROKEN_IMAGES.wrongPort)
    expect(r.passed).toBe(false)
    expect(r.step('listen')).toMatchObject({
      status: 'failed',
      detail: expect.stringMatching(/^nothing answered on port 8080 within 20\.0 s \(connect ECONNREFUSED/),
    })
    expect(r.step('uptime').status).toBe('passed')
    // Nothing was served, so the flag could not be looked for: said plainly, not failed.
    expect(r.step('flag').status).toBe('skipped')
  })

  it('reports a container killed for going over its memory limit', async () => {
    const r = await checkOf(BROKEN_IMAGES.memory, { memoryLimit: 64 })
    expect(r.passed).toBe(false)
    expect(r.step('uptime')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/code 137/) })
    expect(r.step('memory')).toMatchObject({ status: 'failed', detail: expect.stringMatching(/OOMKilled/) })
  })

  it('reports a missing image in the engine’s words and skips the rest', async () => {
    const r = await checkOf('pennant-test-missing:nope')
    expect(r.step('image')).toMatchObject({
      status: 'failed',
      detail: expect.stringContaining('pennant-test-missing:nope'),
    })
    expect(r.steps.slice(1).every((s) => s.status === 'skipped')).toBe(true)
  })

  it('has no flag step for a static container challenge', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, {}, 'StaticContainer')
    const res = await check(game.id, c.id)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().steps.map((s: Step) => s.step)).toEqual([
      'image',
      'start',
      'listen',
      'uptime',
      'memory',
    ])
    expect(res.json().passed).toBe(true)
  })

  it('runs one check of a challenge at a time, and refuses what it cannot check', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const [a, b] = await Promise.all([check(game.id, c.id), check(game.id, c.id)])
    const statuses = [a.statusCode, b.statusCode].sort()
    expect(statuses).toEqual([200, 409])
    const busy = a.statusCode === 409 ? a : b
    expect(busy.json()).toEqual({ title: expect.stringMatching(/being checked/), status: 409 })
    // Once it is over, the next one may run.
    expect((await check(game.id, c.id)).statusCode).toBe(200)

    const plain = await staticChallenge(admin, game.id)
    expect((await check(game.id, plain.id)).statusCode).toBe(400)
    const empty = await createChallenge(admin, game.id, { type: 'DynamicContainer' })
    expect((await check(game.id, empty.id)).json()).toMatchObject({
      status: 400,
      title: expect.stringMatching(/image/),
    })
    expect((await check(game.id, 2 ** 31 - 1)).statusCode).toBe(404)
    expect((await admin.post(`/api/edit/games/${game.id}/challenges/nope/check`)).statusCode).toBe(400)
    const other = await createGame(admin)
    expect((await check(other.id, c.id)).statusCode).toBe(404)
    await expectAdminOnly(t.app, admin, [['POST', `/api/edit/games/${game.id}/challenges/${c.id}/check`]])
  })
})

describe('published ports', { timeout: 120_000 }, () => {
  it('gives an instance one host port on IPv4 and IPv6 alike', async () => {
    // An IPv4-only binding moves the engine's IPv4 port allocation ahead of its IPv6 one: left
    // to choose, it would now give a new container two different ports.
    const skew = docker('run', '-d', '--rm', '-p', '0.0.0.0::8080', CHALLENGE_IMAGE)
    const backend = t.app.deps.infra.containers!
    let started: Awaited<ReturnType<typeof backend.start>> | undefined
    try {
      started = await backend.start({
        instanceId: crypto.randomUUID(),
        image: CHALLENGE_IMAGE,
        port: 9090,
        memoryMb: 32,
        cpuTenths: 1,
        storageMb: 64,
        env: {},
        labels: {},
        egress: false,
        publish: true,
      })
      const bindings = docker('port', started.backendId, '9090/tcp').split('\n')
      expect(bindings.length).toBeGreaterThan(0)
      for (const line of bindings) expect(line).toMatch(new RegExp(`:${started.publicPort}$`))
    } finally {
      docker('rm', '-f', skew)
      if (started) await backend.destroy(started.backendId)
    }
  })
})

describe('a container’s output', { timeout: 120_000 }, () => {
  it('shows admins and monitors the last lines; others are refused', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { containerImage: BROKEN_IMAGES.wrongPort })
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const item = (await admin.get('/api/admin/instances'))
      .json()
      .data.find((i: { challenge: { id: number } | null }) => i.challenge?.id === c.id)
    const url = `/api/admin/instances/${item.containerGuid}/logs`

    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    const token = (await admin.post('/api/tokens', { name: `logs ${uniqueName()}` })).json().token as string
    const bearer = { authorization: `Bearer ${token}` }
    // The container writes its three lines as it starts (two on stdout, one on stderr, whose
    // order between the streams the engine does not keep); read until they are there.
    let all: string[] = []
    await eventually(async () => {
      all = (await admin.get(url)).json().lines
      expect([...all].sort()).toEqual(['listening on 8081', 'starting', 'warning: no config file'])
    })
    expect(all.indexOf('starting')).toBeLessThan(all.indexOf('listening on 8081'))
    // The last lines, as many as asked.
    expect((await monitor.agent.get(`${url}?lines=2`)).json()).toEqual({ lines: all.slice(-2) })
    expect((await new Agent(t.app).request({ method: 'GET', url, headers: bearer })).statusCode).toBe(200)

    expect((await player.agent.get(url)).statusCode).toBe(403)
    expect((await new Agent(t.app).get(url)).json()).toEqual({ title: expect.any(String), status: 401 })
    expect((await admin.get(`${url}?lines=0`)).statusCode).toBe(400)
    expect((await admin.get(`${url}?lines=5000`)).statusCode).toBe(400)
    expect((await admin.get('/api/admin/instances/not-a-guid/logs')).statusCode).toBe(400)
    const unknown = await admin.get('/api/admin/instances/00000000-0000-4000-8000-000000000000/logs')
    expect(unknown.json()).toEqual({ title: expect.any(String), status: 404 })
  })
})
