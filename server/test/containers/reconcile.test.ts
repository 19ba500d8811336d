import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { configs, containers } from '../../src/db/schema.ts'
import { acceptedPlayer, adminAgent, createGame, type TestUser, uniqueName } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { buildChallengeImage, CHALLENGE_IMAGE } from '../helpers/challenge-image.ts'
import { readEntryEventually } from '../helpers/tcp.ts'
import { containerChallenge } from './helpers.ts'

const docker = (...args: string[]) =>
  execFileSync('docker', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const network = `pn-r-${uniqueName('n')}`

let t: TestApp
let admin: Agent
const servers: ChildProcess[] = []

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

/** The real server (`src/main.ts`) on the test database, in its own process. */
async function startServer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: t.databaseUrl,
      DATA_DIR: t.dataDir,
      CONTAINER_BACKEND: 'docker',
      CONTAINER_NETWORK: network,
      LOG_LEVEL: 'warn',
      DISABLE_RATE_LIMIT: 'true',
      WEB_DIR: path.join(t.dataDir, 'no-web-client'),
      PENNANT_ADMIN_PASSWORD: 'Adm1nPassword',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  servers.push(child)
  const url = `http://127.0.0.1:${port}`
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { url, child }
    } catch {
      // not listening yet
    }
    // real wait: polling a real container until it listens
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error('the server did not start')
}

/** A request to the other process with a player's session, as the browser would send it. */
function asPlayer(player: TestUser, url: string, method: string) {
  const cookies = player.agent.cookies
  return fetch(url, {
    method,
    headers: {
      cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-xsrf-token': cookies.get('XSRF-TOKEN') ?? '',
    },
  })
}

function killHard(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })
}

beforeAll(async () => {
  await buildChallengeImage()
  t = await createTestApp({ CONTAINER_BACKEND: 'docker', CONTAINER_NETWORK: network })
  admin = await adminAgent(t.app)
}, 120_000)

afterAll(async () => {
  for (const child of servers) if (child.exitCode === null && child.signalCode === null) await killHard(child)
  await t.app.deps.services.containerRuntime.reap(new Date(Date.now() + 365 * 86400_000))
  await t.app.deps.infra.containers?.isolation.remove()
  await t.close()
  // The isolation rules make both networks (with and without egress) at the first start.
  for (const n of [network, `${network}-noegress`]) {
    try {
      // A killed server's isolation probe may still sit on the network.
      for (const id of docker(
        'ps',
        '-aq',
        '--filter',
        'label=pennant.platform=probe',
        '--filter',
        `network=${n}`,
      )
        .split('\n')
        .filter(Boolean))
        docker('rm', '-f', id)
      docker('network', 'rm', n)
    } catch {
      // never made
    }
  }
}, 60_000)

// Two processes on one database need PostgreSQL; the embedded database has one owner.
describe.skipIf(!process.env.TEST_DATABASE_URL)('reconciling after a server is killed', () => {
  it('removes strangers and leftovers, forgets vanished containers, and keeps the rest running', {
    timeout: 120_000,
  }, async () => {
    const game = await createGame(admin)
    const c = await containerChallenge(admin, game.id)
    const [a, b] = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]

    let server = await startServer()
    const started = async (p: TestUser) => {
      const res = await asPlayer(p, `${server.url}/api/game/${game.id}/container/${c.id}`, 'POST')
      expect(res.status).toBe(200)
      return (await res.json()) as { entry: string }
    }
    await started(a)
    const kept = await started(b)
    const rows = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
    const rowA = rows.find((r) => r.teamId === a.teamId)!
    await killHard(server.child)

    // While it is down: a container is removed by hand, and one of ours appears that no row
    // knows (a start that died between the engine and the database).
    docker('rm', '-f', rowA.containerId)
    const [platform] = await t.app.deps.db.select().from(configs).where(eq(configs.key, 'platform'))
    const strayId = docker(
      'run',
      '-d',
      '--label',
      `pennant.platform=${(platform!.value as { id: string }).id}`,
      '--label',
      `pennant.instance=${randomUUID()}`,
      CHALLENGE_IMAGE,
    )
    // And one of another platform on the same engine, which is none of our business.
    const foreign = docker('run', '-d', '--label', 'pennant.platform=someone-else', CHALLENGE_IMAGE)

    server = await startServer()
    const left = await t.app.deps.db.select().from(containers).where(eq(containers.challengeId, c.id))
    expect(left.map((r) => r.teamId)).toEqual([b.teamId])
    expect(() => docker('inspect', strayId)).toThrow()
    expect(docker('inspect', foreign, '--format', '{{.State.Running}}')).toBe('true')
    docker('rm', '-f', foreign)
    expect(await readEntryEventually(kept.entry)).toContain(`team=${b.teamId}`)

    // The team whose container vanished can start a new one (after the 10-second turn).
    const detail = await asPlayer(a, `${server.url}/api/game/${game.id}/challenges/${c.id}`, 'GET')
    expect(
      ((await detail.json()) as { context: { instanceEntry: string | null } }).context.instanceEntry,
    ).toBeNull()
    await killHard(server.child)
  })
})
