import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { eq } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { WebSocket } from 'ws'
import type { ContainerConfig } from '../../config/index.ts'
import type { Db } from '../../db/index.ts'
import { challenges, containers, flags, gameInstances, teams } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'
import type { ContainerBackend, ContainerTarget } from '../../infra/containers/index.ts'

/** How long a container lookup (found or not) is remembered, as upstream does. */
const LOOKUP_TTL_MS = 10 * 60_000
/** How long a TCP connect to a container may take before the client gets its 418. */
const CONNECT_TIMEOUT_MS = 5_000
/**
 * Bytes sent to the WebSocket and not yet written to its socket: above this the container's
 * socket is paused, so a slow player never grows the server's memory.
 */
const HIGH_WATER = 1024 * 1024

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

/** A connected, not yet upgraded, proxy request: the TCP socket waits for the WebSocket. */
export interface PendingConnection {
  entry: ProxyEntry
  tcp: Socket
  counted: boolean
  /** Gives back the connection slot and closes the TCP side; safe to call twice. */
  release(): void
}

/**
 * The platform proxy (api-contract §2.8, game-engine §6.5): a player's WebSocket carried to the
 * container's TCP port, binary frames both ways, with per-container connection counts and a
 * time cap. Counts and lookups live in this process: one server carries a connection from start
 * to end.
 */
export function createProxyService(deps: {
  db: Db
  backend: ContainerBackend | null
  config: ContainerConfig
  log: FastifyBaseLogger
  recorder?: OpenRecorder
}) {
  const { db, config } = deps
  const lookups = new Map<string, { entry: ProxyEntry | null; at: number }>()
  const open = new Map<string, number>()
  const live = new Map<WebSocket, { tcp: Socket; container: string }>()

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

  function dial(target: ContainerTarget): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const tcp = connect({
        host: target.host,
        port: target.port,
        noDelay: true,
        // A container gone without a word (another server removed it) is noticed eventually.
        keepAlive: true,
        keepAliveInitialDelay: 30_000,
      })
      const timer = setTimeout(() => tcp.destroy(new Error('connection timed out')), CONNECT_TIMEOUT_MS)
      tcp.once('connect', () => {
        clearTimeout(timer)
        tcp.removeListener('error', reject)
        resolve(tcp)
      })
      tcp.once('error', (err) => {
        clearTimeout(timer)
        reject(err)
      })
    })
  }

  return {
    enabled: config.portMapping === 'PlatformProxy',

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
     * Takes a connection slot (team containers only) and connects to the container: over the
     * limit → 400, no answer → 418. The caller upgrades, then {@link pipe}s, or releases.
     */
    async connect(entry: ProxyEntry): Promise<PendingConnection> {
      const counted = !entry.isTest
      if (counted) {
        const n = open.get(entry.id) ?? 0
        if (n >= config.proxy.connectionLimit)
          throw fail('Container_ConnectionLimitExceeded', { params: [config.proxy.connectionLimit] })
        open.set(entry.id, n + 1)
      }
      let released = false
      const giveBack = () => {
        if (released || !counted) return
        released = true
        const n = (open.get(entry.id) ?? 1) - 1
        if (n > 0) open.set(entry.id, n)
        else open.delete(entry.id)
      }
      try {
        if (!deps.backend) throw new Error('containers are not configured')
        entry.target ??= await deps.backend.target(entry.backendId, entry.port)
        if (!entry.target) throw new Error('the container is not running')
        const tcp = await dial(entry.target)
        return {
          entry,
          tcp,
          counted,
          release() {
            giveBack()
            tcp.destroy()
          },
        }
      } catch (err) {
        giveBack()
        // Gone or moved: look it up afresh next time.
        lookups.delete(entry.id)
        const why = err instanceof Error ? err.message : String(err)
        throw fail('Proxy_ConnectFailed', { params: [why] })
      }
    },

    /**
     * Carries bytes both ways until either side closes or the time cap passes. Back-pressure:
     * the container's socket pauses while the WebSocket has {@link HIGH_WATER} bytes unsent,
     * and the WebSocket pauses while the container's socket does not take more.
     */
    pipe(ws: WebSocket, pending: PendingConnection, player: Endpoint): void {
      const { tcp, entry } = pending
      const connectionId = randomBytes(6).toString('hex')
      let recorder: ConnectionRecorder | null = null
      if (entry.capture && deps.recorder && entry.target) {
        try {
          recorder = deps.recorder(entry, connectionId, player, entry.target)
        } catch (err) {
          deps.log.warn({ err }, 'traffic capture could not start')
        }
      }
      live.set(ws, { tcp, container: entry.id })
      let unsent = 0
      let done = false
      const finish = () => {
        if (done) return
        done = true
        clearTimeout(cap)
        live.delete(ws)
        pending.release()
        recorder?.close()
      }
      const cap = setTimeout(() => {
        ws.close(1000, 'connection time limit reached')
        tcp.destroy()
        finish()
      }, config.proxy.maxConnectionMs)

      const sent = (n: number) => () => {
        unsent -= n
        if (unsent < HIGH_WATER / 2 && tcp.isPaused() && !done) tcp.resume()
      }
      tcp.on('data', (chunk: Buffer) => {
        recorder?.data(false, chunk)
        unsent += chunk.length
        ws.send(chunk, { binary: true }, sent(chunk.length))
        if (unsent >= HIGH_WATER) tcp.pause()
      })
      // The container closed its side: say so the WebSocket way (a close frame without a code).
      tcp.on('end', () => {
        ws.close()
        finish()
      })
      tcp.on('close', () => {
        if (ws.readyState === ws.OPEN) ws.close()
        finish()
      })
      tcp.on('error', (err) => deps.log.debug({ err, container: entry.id }, 'proxied connection failed'))

      ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
        const chunk = Buffer.isBuffer(data)
          ? data
          : Array.isArray(data)
            ? Buffer.concat(data)
            : Buffer.from(data)
        recorder?.data(true, chunk)
        if (!tcp.write(chunk)) {
          ws.pause()
          tcp.once('drain', () => ws.resume())
        }
      })
      ws.on('close', () => {
        tcp.end()
        // A container that never closes its side would hold the slot: give it a moment only.
        setTimeout(() => tcp.destroy(), 1000).unref()
        finish()
      })
      ws.on('error', () => tcp.destroy())
    },

    /** Open proxied connections of a container (tests, the bench). */
    connections: (id: string) => open.get(id) ?? 0,

    /**
     * Bytes the server holds for proxied connections right now (written to a socket and not
     * yet taken by it, either way): what back-pressure keeps small.
     */
    buffered() {
      let total = 0
      for (const [ws, { tcp }] of live) total += ws.bufferedAmount + tcp.writableLength
      return total
    },

    /**
     * A container was removed (here): its connections end now rather than hang on a peer that
     * vanished without a word, and its id is unknown from now on.
     */
    containerRemoved(id: string) {
      lookups.set(id, { entry: null, at: Date.now() })
      for (const [ws, c] of live) {
        if (c.container !== id) continue
        ws.close(1001, 'the container was removed')
        c.tcp.destroy()
      }
    },

    /** Ends every proxied connection (server shutdown). */
    close() {
      for (const ws of live.keys()) ws.terminate()
    },
  }
}
export type ProxyService = ReturnType<typeof createProxyService>
