/**
 * The local tunnelling daemon (seed §3, §4, §7, §8, §9): a program on the player's machine
 * (`node tunnel.mjs`, served by this site, or any daemon with the same API) that turns the
 * platform proxy's WebSocket addresses into local TCP ports. This module talks to it and keeps
 * its state; no React here.
 */

/** Seed §9. */
export const DAEMON = {
  api: 'http://127.0.0.1:3307',
  pollMs: 3000,
  /** While usable, the instance pool is synced on every 5th poll. */
  syncEvery: 5,
  minVersion: '0.4',
  debounceMs: 100,
} as const

export type DaemonState = 'invalid' | 'pending' | 'usable'

/** Seed §8: the daemon errors and their messages. */
export const DAEMON_ERRORS = {
  daemon_unavailable: 'Failed to connect to wsrx daemon',
  daemon_version_mismatch: `wsrx version is lower than required ${DAEMON.minVersion}`,
  daemon_error: 'Failed to check wsrx version, is wsrx daemon running?',
  scope_unverified: 'This site is not yet allowed to use the wsrx daemon',
  missing_scope: 'The wsrx daemon did not grant this site access',
  daemon_offline: 'The wsrx daemon went offline',
  sync_failed: 'Failed to sync instances, is wsrx daemon running?',
  add_failed: 'Failed to add instance, is wsrx daemon running?',
  delete_failed: 'Failed to delete instance, is wsrx daemon running?',
  unknown: 'Unknown wsrx daemon error',
} as const
export type DaemonErrorKind = keyof typeof DAEMON_ERRORS

export class DaemonError extends Error {
  constructor(readonly kind: DaemonErrorKind) {
    super(DAEMON_ERRORS[kind])
  }
}

/** One forwarded instance: the proxy's WebSocket address and the local `host:port`. */
export interface PoolEntry {
  remote: string
  local: string
}

/** `a.b[.c]` ≥ `min`, numerically per part; anything unparsable is too low. */
export function versionAtLeast(version: string, min: string): boolean {
  const parts = (v: string) => v.replace(/^v/, '').split(/[.-]/).slice(0, 3).map(Number)
  const a = parts(version)
  const b = parts(min)
  if (a.some(Number.isNaN)) return false
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    if (x !== y) return x > y
  }
  return true
}

/** The daemon's HTTP API. No retries (seed §7): a failed call is reported as it is. */
export function createDaemonClient(api: string = DAEMON.api, fetchImpl: typeof fetch = fetch) {
  const base = api.replace(/\/+$/, '')
  const call = (method: string, path: string, body?: unknown) =>
    fetchImpl(`${base}${path}`, {
      method,
      headers: body === undefined ? undefined : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    /** Throws `daemon_unavailable` when nothing answers, `daemon_version_mismatch` when too old. */
    async checkVersion(): Promise<string> {
      let res: Response
      try {
        res = await call('GET', '/version')
      } catch {
        throw new DaemonError('daemon_unavailable')
      }
      // A 404 here is a daemon that predates the version route.
      if (res.status === 404) throw new DaemonError('daemon_version_mismatch')
      if (!res.ok) throw new DaemonError('daemon_error')
      const { version } = (await res.json()) as { version?: string }
      if (!version || !versionAtLeast(version, DAEMON.minVersion))
        throw new DaemonError('daemon_version_mismatch')
      return version
    },
    /** 202 usable, 201 pending, anything else (or no answer) invalid. */
    async state(): Promise<DaemonState> {
      try {
        const res = await call('GET', '/connect')
        await res.body?.cancel()
        return res.status === 202 ? 'usable' : res.status === 201 ? 'pending' : 'invalid'
      } catch {
        return 'invalid'
      }
    },
    /** Asks the daemon to let this site use it (the user approves in the daemon). */
    async requestScope(name: string): Promise<void> {
      const res = await call('POST', '/connect', {
        name,
        features: ['basic', 'pingfall'],
        host: 'IN_HEADER',
        state: 'pending',
      }).catch(() => null)
      if (!res) throw new DaemonError('daemon_unavailable')
      await res.body?.cancel()
      if (res.status !== 201 && res.status !== 202) throw new DaemonError('missing_scope')
    },
    async pool(): Promise<PoolEntry[]> {
      const res = await call('GET', '/pool').catch(() => null)
      if (!res?.ok) throw new DaemonError('sync_failed')
      return (await res.json()) as PoolEntry[]
    },
    async add(remote: string, local = '127.0.0.1:0'): Promise<PoolEntry> {
      const res = await call('POST', '/pool', { remote, local }).catch(() => null)
      if (!res?.ok) throw new DaemonError('add_failed')
      return (await res.json()) as PoolEntry
    },
    async remove(local: string): Promise<void> {
      const res = await call('DELETE', '/pool', { local }).catch(() => null)
      if (!res?.ok) throw new DaemonError('delete_failed')
      await res.body?.cancel()
    },
  }
}
export type DaemonClient = ReturnType<typeof createDaemonClient>

/**
 * A connection to the daemon (seed §4): check the version, then the state; when invalid, ask
 * for a scope and look again. Then poll every {@link DAEMON.pollMs}; while usable, sync the pool
 * every {@link DAEMON.syncEvery}th poll with the instances `wanted` names (those of this site
 * only are added and removed). Polling stops when the state turns invalid, with a `daemon_offline`
 * error if it was not invalid before. An unavailable daemon is not an error on the first connect.
 */
export function createDaemonSession(opts: {
  client: DaemonClient
  name: string
  /** The proxy addresses that should have a local port now. */
  wanted: () => string[]
  /** Whether a pool entry belongs to this site (only those are removed). */
  ours: (remote: string) => boolean
  /** Where new local ports listen (`127.0.0.1:0`, or `0.0.0.0:0` to allow the LAN). */
  localAddress?: () => string
  onState: (state: DaemonState) => void
  onPool: (pool: PoolEntry[]) => void
  onError: (error: DaemonError) => void
}) {
  const { client } = opts
  let state: DaemonState = 'invalid'
  let timer: ReturnType<typeof setTimeout> | null = null
  let debounce: ReturnType<typeof setTimeout> | null = null
  let polls = 0
  let first = true
  let stopped = false

  const set = (next: DaemonState) => {
    if (next === 'invalid' && state !== 'invalid') opts.onError(new DaemonError('daemon_offline'))
    state = next
    opts.onState(next)
  }

  async function sync(): Promise<PoolEntry[]> {
    let pool = await client.pool()
    const wanted = new Set(opts.wanted())
    for (const remote of wanted) {
      if (!pool.some((p) => p.remote === remote))
        pool = [...pool, await client.add(remote, opts.localAddress?.() ?? '127.0.0.1:0')]
    }
    for (const p of pool.filter((x) => opts.ours(x.remote) && !wanted.has(x.remote))) {
      await client.remove(p.local)
      pool = pool.filter((x) => x !== p)
    }
    opts.onPool(pool)
    return pool
  }

  async function poll() {
    timer = null
    if (stopped) return
    const next = await client.state()
    if (stopped) return
    set(next)
    if (next === 'invalid') return
    polls++
    if (next === 'usable' && polls % DAEMON.syncEvery === 0)
      await sync().catch((e: DaemonError) => opts.onError(e))
    if (!stopped) timer = setTimeout(poll, DAEMON.pollMs)
  }

  async function connect() {
    debounce = null
    if (timer) clearTimeout(timer)
    timer = null
    const initial = first
    first = false
    try {
      await client.checkVersion()
      let next = await client.state()
      if (next === 'invalid') {
        await client.requestScope(opts.name)
        next = await client.state()
      }
      if (stopped) return
      set(next)
      if (next === 'usable') await sync()
      if (next === 'pending') opts.onError(new DaemonError('scope_unverified'))
      if (next !== 'invalid') timer = setTimeout(poll, DAEMON.pollMs)
    } catch (err) {
      const e = err instanceof DaemonError ? err : new DaemonError('unknown')
      if (state !== 'invalid' && !stopped) {
        // The daemon answered, then a later step failed: gone (offline), or one call refused.
        const now = await client.state()
        if (stopped) return
        if (now === 'invalid') return set('invalid')
        opts.onError(e)
        timer = setTimeout(poll, DAEMON.pollMs)
        return
      }
      if (!(initial && e.kind === 'daemon_unavailable')) opts.onError(e)
      state = 'invalid'
      opts.onState('invalid')
    }
  }

  return {
    /** (Re)connects, debounced by {@link DAEMON.debounceMs}. */
    connect() {
      if (debounce) clearTimeout(debounce)
      debounce = setTimeout(() => void connect(), DAEMON.debounceMs)
    },
    /** Syncs the pool now (an instance started or stopped); the new pool. */
    sync: () => (state === 'usable' ? sync() : Promise.resolve(null)),
    get state() {
      return state
    },
    stop() {
      stopped = true
      if (timer) clearTimeout(timer)
      if (debounce) clearTimeout(debounce)
    },
  }
}
export type DaemonSession = ReturnType<typeof createDaemonSession>
