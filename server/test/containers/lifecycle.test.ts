import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { containers, flags, gameInstances } from '../../src/db/schema.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  registeredUser,
  setRole,
  staticChallenge,
  uniqueName,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage, CRASHING_IMAGE } from '../helpers/challenge-image.ts'
import { readEntry, readEntryEventually } from '../helpers/tcp.ts'
import { closeContainerApp, containerChallenge, docker } from './helpers.ts'

let t: TestApp
let admin: Agent
const network = `pn-t-${uniqueName('n')}`
beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: network })
  admin = await adminAgent(t.app)
}, 120_000)
afterAll(async () => {
  await closeContainerApp(t, network)
}, 60_000)

const db = () => t.app.deps.db

/** Lets the 10-second turn of a challenge's instances pass, as if the time had gone by. */
async function coolDown(challengeId: number) {
  await db()
    .update(gameInstances)
    .set({ lastContainerOperation: new Date(Date.now() - 11_000) })
    .where(eq(gameInstances.challengeId, challengeId))
}

async function rowOf(challengeId: number, participationTeam?: number) {
  const rows = await db().select().from(containers).where(eq(containers.challengeId, challengeId))
  return participationTeam === undefined ? rows[0] : rows.find((r) => r.teamId === participationTeam)
}

async function setPolicy(policy: Record<string, unknown>) {
  const res = await admin.put('/api/admin/config', { containerPolicy: policy })
  expect(res.statusCode, res.body).toBe(200)
}

describe('a team container on Docker', () => {
  it('starts with the team’s own flag, answers at its entry, and is destroyed', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/container/${c.id}`
    const published: { type: string; values: string[]; user: string; team: string }[] = []
    const unsubscribe = t.app.deps.infra.bus.subscribe('game.event', ({ gameId, event }) => {
      if (gameId === game.id && event.type.startsWith('Container')) published.push(event)
    })

    const started = await player.agent.post(url)
    expect(started.statusCode, started.body).toBe(200)
    const info = started.json()
    expect(info.status).toBe('Running')
    expect(info.entry).toMatch(/^127\.0\.0\.1:\d+$/)
    expect(info.expectStopAt - info.startedAt).toBe(120 * 60_000)
    // A second start, or a destroy, within 10 s of the start is refused.
    expect((await player.agent.post(url)).statusCode).toBe(429)
    const early = await player.agent.delete(url)
    expect(early.statusCode).toBe(429)
    expect(early.headers['retry-after']).toBeUndefined()

    const [instance] = await db().select().from(gameInstances).where(eq(gameInstances.challengeId, c.id))
    const [flag] = await db().select().from(flags).where(eq(flags.id, instance!.flagId!))
    expect(await readEntryEventually(info.entry)).toBe(
      `flag=${flag!.flag} team=${player.teamId} pennant=${flag!.flag}`,
    )

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

    const row = await rowOf(c.id)
    expect(docker('inspect', row!.containerId, '--format', '{{.State.Running}}')).toBe('true')
    expect(docker('inspect', row!.containerId, '--format', '{{index .Config.Labels "pennant.team"}}')).toBe(
      String(player.teamId),
    )

    await coolDown(c.id)
    const again = await player.agent.post(url)
    expect(again.statusCode).toBe(400)
    expect(again.json().title).toMatch(/already running/)

    await coolDown(c.id)
    const destroyed = await player.agent.delete(url)
    expect(destroyed.statusCode, destroyed.body).toBe(200)
    expect(() => docker('inspect', row!.containerId)).toThrow()
    const after = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
    expect(after.context.instanceEntry).toBeNull()
    expect(after.context.closeTime).toBeNull()
    expect((await player.agent.delete(url)).json().title).toMatch(/no container/)

    const events = (await admin.get(`/api/game/${game.id}/events`)).json()
    const mine = events.filter((e: { type: string }) => e.type.startsWith('Container'))
    expect(mine.map((e: { type: string; values: string[]; team: string }) => [e.type, e.values])).toEqual([
      ['ContainerDestroy', [String(c.id), c.title]],
      ['ContainerStart', [String(c.id), c.title]],
    ])
    // The bus (and so the monitor hub) told the same events as they happened, naming who.
    unsubscribe()
    const told = (e: { type: string; values: string[]; user: string; team: string }) => [
      e.type,
      e.values,
      e.user,
      e.team,
    ]
    expect(published.map(told)).toEqual([...mine].reverse().map(told))
    expect(published[0]!.user).toBe(player.userName)
  })

  it('runs with the challenge’s limits and without extra privileges', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { memoryLimit: 96, cpuCount: 5 })
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const row = await rowOf(c.id)
    const host = JSON.parse(docker('inspect', row!.containerId, '--format', '{{json .HostConfig}}'))
    expect(host.Memory).toBe(96 * 1024 * 1024)
    expect(host.NanoCpus).toBe(500_000_000)
    expect(host.PidsLimit).toBe(1024)
    expect(host.SecurityOpt).toContain('no-new-privileges:true')
    expect(host.CapDrop).toEqual(expect.arrayContaining(['NET_RAW', 'MKNOD']))
    // The image exposes 8080 on TCP and UDP: both are published on the same host port.
    const ports = JSON.parse(
      docker('inspect', row!.containerId, '--format', '{{json .NetworkSettings.Ports}}'),
    )
    expect(ports['8080/tcp'][0].HostPort).toBe(ports['8080/udp'][0].HostPort)
    expect(ports['9090/tcp'] ?? null).toBeNull()
    expect(`${row!.publicIp}:${row!.publicPort}`).toBe(`127.0.0.1:${ports['8080/tcp'][0].HostPort}`)
  })

  it('keeps two teams’ containers from reaching each other', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const a = await acceptedPlayer(t.app, admin, game.id)
    const b = await acceptedPlayer(t.app, admin, game.id)
    const ea = (await a.agent.post(`/api/game/${game.id}/container/${c.id}`)).json().entry
    expect((await b.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const rowA = await rowOf(c.id, a.teamId)
    const rowB = await rowOf(c.id, b.teamId)
    // Both answer from the host...
    expect(await readEntryEventually(ea)).toContain(`team=${a.teamId}`)
    expect(await readEntry(`${rowA!.ip}:8080`)).toContain(`team=${a.teamId}`)
    // ...but not to each other.
    const probe = () =>
      docker(
        'exec',
        rowB!.containerId,
        '/bin/busybox',
        'timeout',
        '3',
        '/bin/busybox',
        'nc',
        rowA!.ip,
        '8080',
      )
    expect(probe).toThrow()
  })

  it('extends only inside the renewal window, by the extension', async () => {
    await setPolicy({ defaultLifetime: 60, extensionDuration: 30, renewalWindow: 10 })
    try {
      const game = await createGame(admin)
      const c = await containerChallenge(admin, game.id)
      const player = await acceptedPlayer(t.app, admin, game.id)
      const url = `/api/game/${game.id}/container/${c.id}`
      expect((await player.agent.post(`${url}/extend`)).json().title).toMatch(/no container/)
      const info = (await player.agent.post(url)).json()
      expect(info.expectStopAt - info.startedAt).toBe(60 * 60_000)
      const refused = await player.agent.post(`${url}/extend`)
      expect(refused.statusCode).toBe(400)
      expect(refused.json().title).toMatch(/last 10 minutes/)

      // Nine minutes left: inside the window; the extension adds to the old stop time.
      const stop = new Date(Date.now() + 9 * 60_000)
      await db().update(containers).set({ expectStopAt: stop }).where(eq(containers.challengeId, c.id))
      const extended = await player.agent.post(`${url}/extend`)
      expect(extended.statusCode, extended.body).toBe(200)
      expect(extended.json().expectStopAt).toBe(stop.getTime() + 30 * 60_000)
      expect((await player.agent.post(`${url}/extend`)).statusCode).toBe(400)
    } finally {
      await setPolicy({})
    }
  })

  it('is removed by the reaper when its time is up', async () => {
    await setPolicy({ defaultLifetime: 1 })
    try {
      const game = await createGame(admin)
      const c = await containerChallenge(admin, game.id)
      const player = await acceptedPlayer(t.app, admin, game.id)
      const info = (await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).json()
      expect(info.expectStopAt - info.startedAt).toBe(60_000)
      const row = await rowOf(c.id)
      const runtime = t.app.deps.services.containerRuntime
      expect(await runtime.reap(new Date(info.expectStopAt - 1000))).toBe(0)
      expect(await runtime.reap(new Date(info.expectStopAt + 1000))).toBeGreaterThanOrEqual(1)
      expect(() => docker('inspect', row!.containerId)).toThrow()
      expect(await rowOf(c.id)).toBeUndefined()
      const detail = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
      expect(detail.context.instanceEntry).toBeNull()
    } finally {
      await setPolicy({})
    }
  })

  it('holds the team to the game’s container limit, or replaces the oldest when the policy says so', async () => {
    const game = await createGame(admin, { containerCountLimit: 1 })
    const c1 = await containerChallenge(admin, game.id)
    const c2 = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await player.agent.post(`/api/game/${game.id}/container/${c1.id}`)).statusCode).toBe(200)
    const over = await player.agent.post(`/api/game/${game.id}/container/${c2.id}`)
    expect(over.statusCode).toBe(400)
    expect(over.json().title).toMatch(/run 1 containers? at once/)
    // The refused start gave its turn back: no 10-second wait for a second try.
    await setPolicy({ autoDestroyOnLimitReached: true })
    try {
      const replaced = await player.agent.post(`/api/game/${game.id}/container/${c2.id}`)
      expect(replaced.statusCode, replaced.body).toBe(200)
      expect(await rowOf(c1.id)).toBeUndefined()
      expect(await rowOf(c2.id)).toBeDefined()
    } finally {
      await setPolicy({})
    }
  })

  it('starts one container when the same team asks twice at once', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const url = `/api/game/${game.id}/container/${c.id}`
    const answers = await Promise.all([
      player.agent.post(url),
      player.agent.post(url),
      player.agent.post(url),
    ])
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 429, 429])
    const rows = await db().select().from(containers).where(eq(containers.challengeId, c.id))
    expect(rows).toHaveLength(1)
    const ours = docker('ps', '-q', '--filter', `label=pennant.challenge=${c.id}`).split('\n').filter(Boolean)
    expect(ours).toHaveLength(1)
  })

  it('admits a burst of starts a few at a time, and starts every team its own container', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const players = []
    for (let i = 0; i < 6; i++) players.push(await acceptedPlayer(t.app, admin, game.id))
    // CONTAINER_START_CONCURRENCY is unset here: half the engine's CPUs go at once, and twice
    // that many starts are past the queue, so no more rows than that are ever waiting for it.
    const { starts, from } = await t.app.deps.services.containerRuntime.startConcurrency()
    const cpus = Number(docker('info', '--format', '{{.NCPU}}'))
    expect(from).toBe(`half the engine's ${cpus} CPUs`)
    expect(starts).toBe(Math.max(1, Math.floor(cpus / 2)))
    let most = 0
    let sampling = true
    const sampler = (async () => {
      while (sampling) {
        const pending = await db()
          .select({ id: containers.id })
          .from(containers)
          .where(and(eq(containers.challengeId, c.id), eq(containers.status, 0)))
        most = Math.max(most, pending.length)
        // real wait: sampling pending rows while real starts run
        await new Promise((r) => setTimeout(r, 5))
      }
    })()
    const answers = await Promise.all(
      players.map((p) => p.agent.post(`/api/game/${game.id}/container/${c.id}`)),
    )
    sampling = false
    await sampler
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200])
    expect(new Set(answers.map((r) => r.json().entry)).size).toBe(6)
    expect(most).toBeGreaterThan(0)
    expect(most).toBeLessThanOrEqual(2 * starts)
    for (const p of players) {
      const res = await readEntryEventually(answers[players.indexOf(p)]!.json().entry)
      expect(res).toContain(`team=${p.teamId}`)
    }
  })

  it('answers a repeated start with the start still in flight, not a second container', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    // Opening the challenge gives the team its instance; then a start is under way elsewhere.
    await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    const [p] = await db().select().from(gameInstances).where(eq(gameInstances.challengeId, c.id))
    const id = '11111111-1111-4111-8111-111111111111'
    const now = new Date()
    await db()
      .insert(containers)
      .values({
        id,
        image: 'x',
        startedAt: now,
        expectStopAt: new Date(now.getTime() + 60_000),
        challengeId: c.id,
      })
    await db()
      .update(gameInstances)
      .set({ containerId: id })
      .where(eq(gameInstances.challengeId, p!.challengeId))
    const asked = player.agent.post(`/api/game/${game.id}/container/${c.id}`)
    // real wait: the request reaches the real engine's start
    await new Promise((r) => setTimeout(r, 300))
    await db()
      .update(containers)
      .set({ status: 1, ip: '10.9.8.7', port: 8080, publicIp: '127.0.0.1', publicPort: 40000 })
      .where(eq(containers.id, id))
    const res = await asked
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().entry).toBe('127.0.0.1:40000')
    await db().delete(containers).where(eq(containers.id, id))
  })

  it('answers errors users can act on, and leaves nothing behind', async () => {
    const game = await createGame(admin)
    const player = await acceptedPlayer(t.app, admin, game.id)

    const missing = await containerChallenge(admin, game.id, { containerImage: 'pennant-no-such-image:1' })
    const res = await player.agent.post(`/api/game/${game.id}/container/${missing.id}`)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toContain('pennant-no-such-image:1')
    expect(await rowOf(missing.id)).toBeUndefined()
    // A failed start does not cost the 10-second wait.
    expect((await player.agent.post(`/api/game/${game.id}/container/${missing.id}`)).statusCode).toBe(400)

    // A container that cannot start: the engine's reason goes to admins only.
    const crashing = await containerChallenge(admin, game.id, { containerImage: CRASHING_IMAGE })
    const crashed = await player.agent.post(`/api/game/${game.id}/container/${crashing.id}`)
    expect(crashed.statusCode).toBe(400)
    expect(crashed.json().title).toMatch(/could not be started; try again/)
    expect(docker('ps', '-aq', '--filter', `label=pennant.challenge=${crashing.id}`)).toBe('')
    const asAdmin = await admin.post(`/api/edit/games/${game.id}/challenges/${crashing.id}/container`)
    expect(asAdmin.json().title).toMatch(/could not be started: .*srv\/missing/)
    const plain = await staticChallenge(admin, game.id)
    const notContainer = await player.agent.post(`/api/game/${game.id}/container/${plain.id}`)
    expect(notContainer.statusCode).toBe(400)
    expect(notContainer.json().title).toMatch(/no container/)

    const noImage = await createChallenge(admin, game.id, { type: 'DynamicContainer' })
    await admin.put(`/api/edit/games/${game.id}/challenges/${noImage.id}`, {
      isEnabled: true,
      containerImage: '',
    })
    expect((await player.agent.post(`/api/game/${game.id}/container/${noImage.id}`)).statusCode).toBe(400)

    expect((await player.agent.post(`/api/game/${game.id}/container/999999`)).statusCode).toBe(404)
    const stranger = await registeredUser(t.app)
    const notJoined = await stranger.agent.post(`/api/game/${game.id}/container/${missing.id}`)
    expect(notJoined.statusCode).toBe(400)
    expect(notJoined.json().title).toMatch(/not joined/)
    expect((await new Agent(t.app).post(`/api/game/${game.id}/container/${missing.id}`)).statusCode).toBe(401)
    const leftovers = docker('ps', '-aq', '--filter', `label=pennant.challenge=${missing.id}`)
    expect(leftovers).toBe('')
  })
})

describe('the organisers’ test container', () => {
  it('starts with a test flag, shows in the editor, and is removed', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id, { flagTemplate: 'flag{[TEAM_HASH]}' })
    const url = `/api/edit/games/${game.id}/challenges/${c.id}/container`
    const started = await admin.post(url)
    expect(started.statusCode, started.body).toBe(200)
    expect(await readEntryEventually(started.json().entry)).toBe(
      'flag=flag{TestTeamHash} team=admin pennant=flag{TestTeamHash}',
    )
    const detail = (await admin.get(`/api/edit/games/${game.id}/challenges/${c.id}`)).json()
    expect(detail.testContainer.entry).toBe(started.json().entry)
    // Not a team's: the instance list leaves it out.
    const listed = (await admin.get('/api/admin/instances')).json()
    expect(listed.data.some((i: { challenge: { id: number } | null }) => i.challenge?.id === c.id)).toBe(
      false,
    )

    expect((await admin.delete(url)).statusCode).toBe(200)
    expect((await admin.get(`/api/edit/games/${game.id}/challenges/${c.id}`)).json().testContainer).toBeNull()
    expect((await admin.delete(url)).statusCode).toBe(200)
  })

  it('needs an image, a container challenge and an admin', async () => {
    const game = await createGame(admin)
    const plain = await createChallenge(admin, game.id)
    expect((await admin.post(`/api/edit/games/${game.id}/challenges/${plain.id}/container`)).statusCode).toBe(
      400,
    )
    const noImage = await createChallenge(admin, game.id, { type: 'StaticContainer' })
    const res = await admin.post(`/api/edit/games/${game.id}/challenges/${noImage.id}/container`)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toMatch(/image and exposed port/)
    const missing = await containerChallenge(admin, game.id, { containerImage: 'pennant-no-such-image:2' })
    const failed = await admin.post(`/api/edit/games/${game.id}/challenges/${missing.id}/container`)
    expect(failed.statusCode).toBe(400)
    expect(failed.json().title).toContain('pennant-no-such-image:2')

    const monitor = await registeredUser(t.app)
    await setRole(t.app, monitor.userName, 2)
    expect(
      (await monitor.agent.post(`/api/edit/games/${game.id}/challenges/${noImage.id}/container`)).statusCode,
    ).toBe(403)
    expect((await admin.post(`/api/edit/games/${game.id}/challenges/999999/container`)).statusCode).toBe(404)
  })
})

describe('the admin instance list', () => {
  it('lists team containers with team, challenge and game, and destroys them', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    const info = (await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).json()
    const list = (await admin.get('/api/admin/instances')).json()
    expect(list.total).toBe(list.length)
    const item = list.data.find((i: { challenge: { id: number } | null }) => i.challenge?.id === c.id)
    expect(item).toMatchObject({
      team: { id: player.teamId },
      challenge: { id: c.id, title: c.title, category: 'Pwn' },
      game: { id: game.id, title: game.title },
      image: 'pennant-test-challenge:2',
      expectStopAt: info.expectStopAt,
    })
    expect(`${item.ip}:${item.port}`).toBe(info.entry)

    const user = await registeredUser(t.app)
    expect((await user.agent.get('/api/admin/instances')).statusCode).toBe(403)
    expect((await new Agent(t.app).get('/api/admin/instances')).statusCode).toBe(401)
    expect((await user.agent.delete(`/api/admin/instances/${item.containerGuid}`)).statusCode).toBe(403)
    expect((await admin.delete('/api/admin/instances/not-a-guid')).statusCode).toBe(400)
    expect((await admin.delete('/api/admin/instances/00000000-0000-4000-8000-000000000000')).statusCode).toBe(
      404,
    )

    expect((await admin.delete(`/api/admin/instances/${item.containerGuid}`)).statusCode).toBe(200)
    expect(() => docker('inspect', item.containerId)).toThrow()
    const detail = (await player.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()
    expect(detail.context.instanceEntry).toBeNull()
  })

  it('stops the containers of a challenge or a game when it is deleted', async () => {
    const game = await createGame(admin)
    const [c1, c2] = [await containerChallenge(admin, game.id), await containerChallenge(admin, game.id)]
    const player = await acceptedPlayer(t.app, admin, game.id)
    for (const c of [c1, c2])
      expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    expect((await admin.post(`/api/edit/games/${game.id}/challenges/${c2.id}/container`)).statusCode).toBe(
      200,
    )
    const ids = (await db().select().from(containers).where(eq(containers.gameId, game.id))).map(
      (r) => r.containerId,
    )
    expect(ids).toHaveLength(3)

    expect((await admin.delete(`/api/edit/games/${game.id}/challenges/${c1.id}`)).statusCode).toBe(200)
    expect(() => docker('inspect', ids[0]!)).toThrow()
    expect((await admin.delete(`/api/edit/games/${game.id}`)).statusCode).toBe(200)
    for (const id of ids) expect(() => docker('inspect', id)).toThrow()
    expect(await db().select().from(containers).where(eq(containers.challengeId, c2.id))).toEqual([])
  })

  it('stops a team’s containers when an admin deletes the team', async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const player = await acceptedPlayer(t.app, admin, game.id)
    expect((await player.agent.post(`/api/game/${game.id}/container/${c.id}`)).statusCode).toBe(200)
    const [row] = await db().select().from(containers).where(eq(containers.teamId, player.teamId))
    expect(() => docker('inspect', row!.containerId)).not.toThrow()
    expect((await admin.delete(`/api/admin/teams/${player.teamId}`)).statusCode).toBe(200)
    expect(() => docker('inspect', row!.containerId)).toThrow()
    expect(await db().select().from(containers).where(eq(containers.id, row!.id))).toEqual([])
  })

  it('tells admins which backend runs', async () => {
    const status = (await admin.get('/api/ext/containers/status')).json()
    expect(status).toMatchObject({ backend: 'docker', available: true, publicHost: '127.0.0.1' })
    const user = await registeredUser(t.app)
    expect((await user.agent.get('/api/ext/containers/status')).statusCode).toBe(403)
  })
})
