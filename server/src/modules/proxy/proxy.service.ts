import { type ChildProcess, fork } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { ContainerConfig } from '../../config/index.ts'
import type { Db } from '../../db/index.ts'
import { challenges, containers, flags, gameInstances, teams } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'
import type { ContainerBackend, ContainerTarget } from '../../infra/containers/index.ts'
import { FROM_SOURCES, RUNTIME } from '../../paths.ts'
import { type ConnectionSlots, createMemorySlots } from './connection-slots.ts'
import type { FromChild, ToChild } from './proxy-child.ts'

/** How long a container lookup (found or not) is remembered, as upstream does. */
const LOOKUP_TTL_MS = 10 * 60_000
/** How long the API waits for the proxy process to dial a container (it gives up after 5 s). */
const DIAL_WAIT_MS = 10_000
/** A proxy process that dies sooner than this after its start is restarted after a pause. */
const CRASH_LOOP_MS = 1_000

/** What the proxy knows of a container: enough to connect, count and (later) record. */
export interface ProxyEntry {
  id: string
  backendId: string
  port: number
  isTest: boolean
  challengeId: number | null
  challenge: string | null
  participationId: number | null
  teamId: number | null
  team: string | null
  flag: string | null
  capture: boolean
  target: ContainerTarget | null
}

/** One end of a proxied connection, as a capture names it. */
export interface Endpoint {
  host: string
  port: number
}

/** Records one proxied connection (traffic capture); never slows the connection down. */
export interface ConnectionRecorder {
  /** A chunk of payload: `up` from the player to the container, else back. */
  data(up: boolean, chunk: Buffer): void
  close(): void
}

export type OpenRecorder = (
  entry: ProxyEntry,
  connectionId: string,
  player: Endpoint,
  container: Endpoint,
) => ConnectionRecorder | null

/** A dialled, not yet upgraded, proxy request: the proxy process holds its TCP connection. */
export interface PendingConnection {
  id: string
  entry: ProxyEntry
}

/**
 * The proxy process's script: the sources through tsx when the server runs from them (tests,
 * `npm run dev`, the bench), else the build next to `dist/main.js`.
 */
function childScript(): { file: string; execArgv: string[] } {
  // Profiling the server (`--cpu-prof`, the bench's --profile) profiles the proxy process too.
  const prof = process.execArgv.filter((a) => a.startsWith('--cpu-prof'))
  if (FROM_SOURCES) return { file: RUNTIME.proxyChild, execArgv: ['--import', 'tsx', ...prof] }
  return { file: RUNTIME.proxyChild, execArgv: prof }
}

/**
 * The platform proxy (api-contract §2.8, game-engine §6.5): a player's WebSocket carried to the
 * container's TCP port, binary frames both ways, with per-container connection counts and a
 * time cap. This process looks containers up, answers the refusals and counts connections; the
 * bytes go through a child process (proxy-child.ts) that the player's socket is handed to, so
 * proxied traffic never queues the API's requests. Counts and lookups live in this server: one
 * server carries a connection from start to end.
 */
export function createProxyService(deps: {
  db: Db
  backend: ContainerBackend | null
  config: ContainerConfig
  log: FastifyBaseLogger
  /** `DATA_DIR/files/capture`: where the proxy process writes captures. */
  captureRoot?: string
  /** Where the per-container limit is counted (several servers: in Redis, for all of them). */
  slots?: ConnectionSlots
}) {
  const { db, config, log } = deps
  const slots = deps.slots ?? createMemorySlots()
  const enabled = config.portMapping === 'PlatformProxy'
  const lookups = new Map<string, { entry: ProxyEntry | null; at: number }>()
  const open = new Map<string, number>()
  /** Connections the proxy process holds (dialled or carried): the container whose slot each takes. */
  const held = new Map<string, { container: string; counted: boolean }>()
  const dials = new Map<string, (error: string | undefined) => void>()
  const bufferedAsks = new Map<number, (bytes: number) => void>()
  let asks = 0
  let child: ChildProcess | null = null
  let closing = false

  /** Gives back a connection's slot; safe to call twice. */
  function release(id: string) {
    const h = held.get(id)
    if (!h) return
    held.delete(id)
    if (!h.counted) return
    slots.give(h.container, id)
    const n = (open.get(h.container) ?? 1) - 1
    if (n > 0) open.set(h.container, n)
    else open.delete(h.container)
  }

  function onMessage(m: FromChild) {
    if (m.t === 'dialed') {
      dials.get(m.id)?.(m.error)
      dials.delete(m.id)
    } else if (m.t === 'closed') release(m.id)
    else if (m.t === 'buffered') {
      bufferedAsks.get(m.q)?.(m.bytes)
      bufferedAsks.delete(m.q)
    } else if (m.t === 'log') log[m.level]({ err: m.err, container: m.container }, m.msg)
  }

  /** The proxy process, started (again) when there is none. */
  function proxyProcess(): ChildProcess {
    if (child) return child
    const { file, execArgv } = childScript()
    const started = Date.now()
    const c = fork(file, deps.captureRoot ? [deps.captureRoot] : [], {
      execArgv,
      serialization: 'json',
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    child = c
    c.on('message', onMessage)
    c.on('error', (err) => log.warn({ err }, 'the proxy process failed'))
    c.once('exit', (code, signal) => {
      if (child === c) child = null
      // Its connections are gone with it: their slots free, their dials failed.
      for (const id of [...held.keys()]) release(id)
      for (const [id, answer] of dials) {
        dials.delete(id)
        answer('the proxy process stopped')
      }
      for (const [q, answer] of bufferedAsks) {
        bufferedAsks.delete(q)
        answer(0)
      }
      if (closing) return
      log.warn({ code, signal }, 'the proxy process stopped; starting another')
      // A process that cannot even start is not restarted in a tight loop.
      if (Date.now() - started < CRASH_LOOP_MS)
        setTimeout(() => !closing && proxyProcess(), CRASH_LOOP_MS).unref()
      else proxyProcess()
    })
    return c
  }
  if (enabled) proxyProcess()

  const send = (m: ToChild, handle?: Socket, done?: (err: Error | null) => void) => {
    const c = proxyProcess()
    if (!c.connected) return done?.(new Error('the proxy process is not connected'))
    c.send(m, handle as never, done ?? (() => {}))
  }

  async function load(id: string): Promise<ProxyEntry | null> {
    const [row] = await db
      .select({
        id: containers.id,
        backendId: containers.containerId,
        port: containers.port,
        status: containers.status,
        isProxy: containers.isProxy,
        isTest: containers.isTest,
        challengeId: containers.challengeId,
        challenge: challenges.title,
        capture: challenges.enableTrafficCapture,
        participationId: containers.participationId,
        teamId: containers.teamId,
        team: teams.name,
        flag: flags.flag,
      })
      .from(containers)
      .leftJoin(challenges, eq(challenges.id, containers.challengeId))
      .leftJoin(teams, eq(teams.id, containers.teamId))
      .leftJoin(gameInstances, eq(gameInstances.containerId, containers.id))
      .leftJoin(flags, eq(flags.id, gameInstances.flagId))
      .where(eq(containers.id, id))
    // A start in flight has no backend container yet: not found, and not remembered as such.
    if (!row?.isProxy || row.status !== 1) return null
    return {
      id: row.id,
      backendId: row.backendId,
      port: row.port,
      isTest: row.isTest,
      challengeId: row.challengeId,
      challenge: row.challenge,
      participationId: row.participationId,
      teamId: row.teamId,
      team: row.team,
      flag: row.flag,
      capture: config.trafficCapture && row.capture === true && !row.isTest,
      target: null,
    }
  }

  /** The container behind an id, remembered for {@link LOOKUP_TTL_MS} (misses too). */
  async function lookup(id: string): Promise<ProxyEntry | null> {
    const hit = lookups.get(id)
    if (hit && Date.now() - hit.at < LOOKUP_TTL_MS) return hit.entry
    const entry = await load(id)
    if (lookups.size > 100_000) lookups.clear()
    lookups.set(id, { entry, at: Date.now() })
    return entry
  }

  return {
    enabled,

    /**
     * The checks of a proxy request in the contract's order, up to the upgrade: disabled → 400,
     * unknown (or the wrong kind: test containers only under `noinst`) → 404. Returns the entry.
     */
    async find(id: string, testContainer: boolean): Promise<ProxyEntry> {
      if (config.portMapping !== 'PlatformProxy') throw fail('Proxy_TcpDisabled')
      const entry = await lookup(id.toLowerCase())
      if (!entry || entry.isTest !== testContainer) throw fail('Container_NotFound')
      return entry
    },

    /**
     * Takes a connection slot (team containers only) and has the proxy process connect to the
     * container: over the limit → 400, no answer → 418. The caller then hands the player's socket
     * over ({@link handOver}) or {@link drop}s the connection.
     */
    async connect(entry: ProxyEntry): Promise<PendingConnection> {
      const counted = !entry.isTest
      const id = randomBytes(6).toString('hex')
      if (counted) {
        if (!(await slots.take(entry.id, id, config.proxy.connectionLimit)))
          throw fail('Container_ConnectionLimitExceeded', { params: [config.proxy.connectionLimit] })
        open.set(entry.id, (open.get(entry.id) ?? 0) + 1)
      }
      held.set(id, { container: entry.id, counted })
      try {
        if (!deps.backend) throw new Error('containers are not configured')
        entry.target ??= await deps.backend.target(entry.backendId, entry.port)
        if (!entry.target) throw new Error('the container is not running')
        const { host, port } = entry.target
        const error = await new Promise<string | undefined>((resolve) => {
          const timer = setTimeout(() => resolve('connection timed out'), DIAL_WAIT_MS)
          dials.set(id, (e) => {
            clearTimeout(timer)
            resolve(e)
          })
          send({ t: 'dial', id, host, port }, undefined, (err) => {
            if (err) dials.get(id)?.(err.message)
          })
        })
        dials.delete(id)
        if (error) throw new Error(error)
        return { id, entry }
      } catch (err) {
        release(id)
        send({ t: 'drop', id })
        // Gone or moved: look it up afresh next time.
        lookups.delete(entry.id)
        const why = err instanceof Error ? err.message : String(err)
        throw fail('Proxy_ConnectFailed', { params: [why] })
      }
    },

    /**
     * Hands the player's socket, as the HTTP upgrade request left it, to the proxy process,
     * which completes the WebSocket handshake and carries the connection until either side
     * closes or the time cap passes. `head`: what the server read past the request.
     */
    handOver(pending: PendingConnection, req: IncomingMessage, head: Buffer | undefined, player: Endpoint) {
      const socket = req.socket
      // Bytes the client sent early and this process already read go along with the head.
      const early = socket.readableLength ? (socket.read() as Buffer | null) : null
      const rest = Buffer.concat([head ?? Buffer.alloc(0), early ?? Buffer.alloc(0)])
      // Detached from the HTTP server before it leaves: sending a server's socket would make
      // that server wait for the proxy process's connections when it closes.
      const s = socket as Socket & { server: unknown; _server: unknown }
      const server = s._server
      s.server = null
      s._server = null
      const message: ToChild = {
        t: 'take',
        id: pending.id,
        headers: req.headers,
        url: req.url ?? '/',
        head: rest.toString('base64'),
        entry: pending.entry,
        player,
        maxMs: config.proxy.maxConnectionMs,
      }
      if (socket.destroyed) return send({ t: 'drop', id: pending.id })
      send(message, socket, (err) => {
        if (err) send({ t: 'drop', id: pending.id })
        // The socket lives in the proxy process now; here it only closes (and is counted closed).
        s._server = server
        socket.destroy()
      })
    },

    /** Open proxied connections of a container (tests, the bench). */
    connections: (id: string) => open.get(id) ?? 0,

    /**
     * Bytes the proxy holds for proxied connections right now (written to a socket and not yet
     * taken by it, either way): what back-pressure keeps small.
     */
    buffered(): Promise<number> {
      const q = ++asks
      return new Promise((resolve) => {
        bufferedAsks.set(q, resolve)
        send({ t: 'buffered', q })
      })
    },

    /** The proxy process's id (tests stop it to see it restarted). */
    processId: () => child?.pid,

    /**
     * A container was removed (here): its connections end now rather than hang on a peer that
     * vanished without a word, and its id is unknown from now on.
     */
    containerRemoved(id: string) {
      lookups.set(id, { entry: null, at: Date.now() })
      if (child) send({ t: 'remove', container: id })
    },

    /** Ends every proxied connection and the proxy process (server shutdown). */
    async close() {
      closing = true
      slots.close()
      const c = child
      if (!c) return
      const exited = new Promise<void>((resolve) => {
        if (c.exitCode !== null || c.signalCode !== null) resolve()
        else c.once('exit', () => resolve())
      })
      if (c.connected) c.send({ t: 'close' } satisfies ToChild)
      else c.kill()
      // Captures get a moment to finish writing; a stuck process does not hold the server.
      const timer = setTimeout(() => c.kill('SIGKILL'), 3000)
      await exited
      clearTimeout(timer)
    },
  }
}
export type ProxyService = ReturnType<typeof createProxyService>
