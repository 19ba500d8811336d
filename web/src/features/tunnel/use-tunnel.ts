import { notifications } from '@mantine/notifications'
import { useEffect, useRef, useSyncExternalStore } from 'react'
import {
  createDaemonClient,
  createDaemonSession,
  DAEMON,
  type DaemonError,
  type DaemonSession,
  type DaemonState,
  type PoolEntry,
} from './daemon'

/**
 * One daemon connection per page, shared by every challenge dialog: which proxy addresses the
 * team's running instances have (wanted), and the local ports the daemon gives them.
 */
interface Snapshot {
  state: DaemonState
  pool: PoolEntry[]
  allowLan: boolean
}

/** Seed §3: the tunnel options, kept in localStorage `wsrx-options`. */
const OPTIONS_KEY = 'wsrx-options'
function storedAllowLan(): boolean {
  try {
    return (JSON.parse(localStorage.getItem(OPTIONS_KEY) ?? '{}') as { allowLan?: boolean }).allowLan === true
  } catch {
    return false
  }
}
let snapshot: Snapshot = { state: 'invalid', pool: [], allowLan: storedAllowLan() }
const listeners = new Set<() => void>()
const wanted = new Set<string>()
let session: DaemonSession | null = null

const publish = (change: Partial<Snapshot>) => {
  snapshot = { ...snapshot, ...change }
  for (const l of listeners) l()
}

const proxyPrefix = () => `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/api/proxy/`

function start(title: string) {
  if (session) return session
  session = createDaemonSession({
    client: createDaemonClient(DAEMON.api),
    name: `${title}::CTF`,
    wanted: () => [...wanted],
    ours: (remote) => remote.startsWith(proxyPrefix()),
    localAddress: () => (snapshot.allowLan ? '0.0.0.0:0' : '127.0.0.1:0'),
    onState: (state) => publish({ state }),
    onPool: (pool) => publish({ pool }),
    onError: (err: DaemonError) =>
      notifications.show({
        // Seed §8: a version mismatch is orange, the rest red.
        color: err.kind === 'daemon_version_mismatch' ? 'orange' : 'red',
        title: 'wsrx',
        message: err.message,
      }),
  })
  session.connect()
  return session
}

const subscribe = (l: () => void) => {
  listeners.add(l)
  return () => {
    listeners.delete(l)
  }
}

/** The daemon for the navbar: its state and address, the LAN option, and a way to reconnect. */
export function useTunnelStatus(title: string) {
  const snap = useSyncExternalStore(subscribe, () => snapshot)
  useEffect(() => {
    start(title)
  }, [title])
  return {
    state: snap.state,
    api: DAEMON.api,
    allowLan: snap.allowLan,
    /** Applies to instances forwarded from now on. */
    setAllowLan(allowLan: boolean) {
      try {
        localStorage.setItem(
          OPTIONS_KEY,
          JSON.stringify({ api: DAEMON.api, name: `${title}::CTF`, allowLan }),
        )
      } catch {}
      publish({ allowLan })
    },
    reconnect: () => start(title).connect(),
  }
}

/**
 * The local tunnelling daemon as the dialogs see it: its state, and the local address of
 * `remote` when the daemon forwards it. `remote` (a running instance's proxy address) is kept in
 * the daemon's pool until it changes to `null` (the instance stopped).
 */
export function useTunnel(enabled: boolean, title: string, remote: string | null) {
  const snap = useSyncExternalStore(subscribe, () => snapshot)
  // Kept when the dialog closes (the player may still be connected); dropped when it stops.
  const previous = useRef<string | null>(null)
  useEffect(() => {
    if (!enabled) return
    const s = start(title)
    const before = previous.current
    previous.current = remote
    if (before === remote) return
    if (before) wanted.delete(before)
    if (remote) wanted.add(remote)
    // Without a usable daemon nothing is asked again here (no toast per dialog): the navbar's
    // control reconnects, and polling picks up a daemon that becomes usable.
    if (s.state === 'usable') void s.sync().catch(() => {})
  }, [enabled, title, remote])
  return {
    state: snap.state,
    local: remote ? (snap.pool.find((p) => p.remote === remote)?.local ?? null) : null,
  }
}
