import { type ChildProcess, spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import {
  createDaemonClient,
  createDaemonSession,
  DAEMON,
  type DaemonError,
  type DaemonState,
  type PoolEntry,
  versionAtLeast,
} from './daemon'

// Against the real daemon: the tunnel command this site serves (server/assets/tunnel.mjs).
const TUNNEL = fileURLToPath(new URL('../../../../server/assets/tunnel.mjs', import.meta.url))
const SITE = 'http://site.test'
const children: ChildProcess[] = []
afterAll(() => {
  for (const c of children) c.kill()
})

function startDaemon(): Promise<{ api: string; child: ChildProcess }> {
  const child = spawn(process.execPath, [TUNNEL, '--api', '127.0.0.1:0', '--allow', SITE])
  children.push(child)
  return new Promise((resolve, reject) => {
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = out.match(/daemon API on (http:\S+)/)
      if (m) resolve({ api: m[1]!, child })
    })
    child.once('exit', (code) => reject(new Error(`daemon exited with ${code}: ${out}`)))
  })
}

/** A browser sends its page's Origin with every cross-origin call; node's fetch does not. */
const fromPage =
  (origin: string): typeof fetch =>
  (input, init) =>
    fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin } })

const until = async (done: () => boolean, ms = 8000) => {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() > deadline) throw new Error('timed out')
    // real wait: polling between checks
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe(versionAtLeast, () => {
  it.each([
    ['0.4', true],
    ['0.4.0', true],
    ['v0.5.2', true],
    ['1.0.0-beta', true],
    ['0.3.9', false],
    ['0.10', true],
    ['garbage', false],
  ])('%s ≥ 0.4 is %s', (v, ok) => {
    expect(versionAtLeast(v, DAEMON.minVersion)).toBe(ok)
  })
})

describe('the daemon connection, against tunnel.mjs', () => {
  it('connects, becomes usable for an allowed site and keeps the pool in step with the wanted instances', async () => {
    const { api } = await startDaemon()
    const client = createDaemonClient(api, fromPage(SITE))
    expect(await client.checkVersion()).toBe('0.5.0')
    const seen = { states: [] as DaemonState[], errors: [] as string[], pool: [] as PoolEntry[] }
    let wanted = ['ws://127.0.0.1:9/api/proxy/aaaaaaaa-0000-4000-8000-000000000001']
    const session = createDaemonSession({
      client,
      name: 'Pennant::CTF',
      wanted: () => wanted,
      ours: (remote) => remote.startsWith('ws://127.0.0.1:9/api/proxy/'),
      onState: (s) => seen.states.push(s),
      onPool: (p) => {
        seen.pool = p
      },
      onError: (e: DaemonError) => seen.errors.push(e.kind),
    })
    session.connect()
    session.connect() // debounced into one
    await until(() => seen.states.includes('usable') && seen.pool.length === 1)
    expect(seen.states).toEqual(['usable'])
    expect(seen.pool[0]).toMatchObject({
      remote: wanted[0],
      local: expect.stringMatching(/^127\.0\.0\.1:\d+$/),
    })
    expect(await client.pool()).toEqual(seen.pool)

    // The instance stopped: the next sync drops its local port.
    wanted = []
    await session.sync()
    expect(seen.pool).toEqual([])
    expect(await client.pool()).toEqual([])
    expect(seen.errors).toEqual([])
    session.stop()
  }, 15_000)

  it('asks for a scope from a site not allowed yet, and stays pending', async () => {
    const { api } = await startDaemon()
    const errors: string[] = []
    const states: DaemonState[] = []
    const session = createDaemonSession({
      client: createDaemonClient(api, fromPage('http://other.test')),
      name: 'Other::CTF',
      wanted: () => [],
      ours: () => true,
      onState: (s) => states.push(s),
      onPool: () => {},
      onError: (e) => errors.push(e.kind),
    })
    session.connect()
    await until(() => states.length > 0)
    expect(states).toEqual(['pending'])
    expect(errors).toEqual(['scope_unverified'])
    session.stop()
  }, 15_000)

  it('is silent when no daemon runs at first, reports it later, and says when a daemon goes offline', async () => {
    const { api, child } = await startDaemon()
    const errors: string[] = []
    const states: DaemonState[] = []
    const dead = createDaemonSession({
      client: createDaemonClient('http://127.0.0.1:9', fromPage(SITE)),
      name: 'x',
      wanted: () => [],
      ours: () => true,
      onState: (s) => states.push(s),
      onPool: () => {},
      onError: (e) => errors.push(e.kind),
    })
    dead.connect()
    await until(() => states.length === 1)
    expect(errors).toEqual([])
    dead.connect()
    await until(() => states.length === 2)
    expect(errors).toEqual(['daemon_unavailable'])
    dead.stop()

    const liveErrors: string[] = []
    const liveStates: DaemonState[] = []
    const live = createDaemonSession({
      client: createDaemonClient(api, fromPage(SITE)),
      name: 'x',
      wanted: () => [],
      ours: () => true,
      onState: (s) => liveStates.push(s),
      onPool: () => {},
      onError: (e) => liveErrors.push(e.kind),
    })
    live.connect()
    await until(() => liveStates.includes('usable'))
    child.kill()
    await until(() => liveStates.at(-1) === 'invalid', DAEMON.pollMs + 3000)
    expect(liveErrors).toEqual(['daemon_offline'])
    live.stop()
  }, 20_000)

  it('says the daemon went offline when it dies while the first sync is under way', async () => {
    const { api, child } = await startDaemon()
    const errors: string[] = []
    const states: DaemonState[] = []
    const session = createDaemonSession({
      client: createDaemonClient(api, fromPage(SITE)),
      name: 'x',
      // Asked for mid-sync, after the pool was read: the daemon is gone before the port is added.
      wanted: () => {
        child.kill('SIGKILL')
        return ['site.test/api/proxy/abc']
      },
      ours: () => true,
      onState: (s) => states.push(s),
      onPool: () => {},
      onError: (e) => errors.push(e.kind),
    })
    session.connect()
    await until(() => states.at(-1) === 'invalid' && states.length > 1)
    expect(states).toEqual(['usable', 'invalid'])
    expect(errors).toEqual(['daemon_offline'])
    session.stop()
  }, 15_000)
})
