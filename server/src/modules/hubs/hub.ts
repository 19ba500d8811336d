import type { WebSocket } from '@fastify/websocket'
import {
  closeFrame,
  completionErrorFrame,
  handshakeReply,
  MessageType,
  PING_FRAME,
  splitRecords,
} from './protocol.ts'

export interface HubTimings {
  /** A ping goes out when nothing else was sent for this long (SignalR's keep-alive). */
  pingMs: number
  /** A client silent for this long is gone (its own pings come every 15 s by default). */
  timeoutMs: number
  /** Time from opening the socket to a valid handshake. */
  handshakeMs: number
}
const DEFAULT_TIMINGS: HubTimings = { pingMs: 15_000, timeoutMs: 30_000, handshakeMs: 15_000 }
/** Output queued for one client beyond which it is dropped rather than buffered without end. */
const MAX_BUFFERED = 4 << 20
/** A client record longer than this (hub clients send only a handshake and pings) ends it. */
const MAX_RECORD = 64 << 10

/** Who may connect, decided after the handshake: the groups to join, or null to refuse. */
export type Admission = () => Promise<string[] | null>

interface Connection {
  ws: WebSocket
  /** Handshake answered. */
  shaken: boolean
  /** Admitted into its groups (pushes reach it from then on). */
  joined: string[] | null
  opened: number
  lastIn: number
  lastOut: number
  pending: string
  /** Frames waiting for this turn's write. */
  out: Buffer[]
  /** Until the handshake: decides admission (it holds the upgrade request, dropped once used). */
  admit: Admission | null
}

const PING = Buffer.from(PING_FRAME)

/**
 * One hub's connections and groups. A push is serialised once and the same bytes go to every
 * member of the group, so a notice to thousands costs one `JSON.stringify`. One timer per hub
 * sends the keep-alive pings and drops silent clients.
 */
export function createHub(name: string, timings: Partial<HubTimings> = {}) {
  const t = { ...DEFAULT_TIMINGS, ...timings }
  const connections = new Set<Connection>()
  const groups = new Map<string, Set<Connection>>()

  /**
   * Frames pushed in one turn of the event loop go out as one WebSocket message (the protocol
   * allows several records in one): a judge batch of 256 submissions is one write per monitor,
   * not 512.
   */
  const dirty = new Set<Connection>()
  function flush() {
    for (const c of dirty) {
      const bytes = c.out.length === 1 ? c.out[0]! : Buffer.concat(c.out)
      c.out = []
      if (c.ws.readyState !== c.ws.OPEN) continue
      // A client that cannot keep up is dropped; its reconnect starts it afresh.
      if (c.ws.bufferedAmount > MAX_BUFFERED) {
        c.ws.terminate()
        continue
      }
      c.ws.send(bytes, { binary: false })
    }
    dirty.clear()
  }

  function send(c: Connection, bytes: Buffer) {
    if (c.ws.readyState !== c.ws.OPEN) return
    c.lastOut = Date.now()
    c.out.push(bytes)
    if (dirty.size === 0) setImmediate(flush)
    dirty.add(c)
  }

  function end(c: Connection, error?: string) {
    if (c.ws.readyState !== c.ws.OPEN) return
    if (c.shaken) c.ws.send(closeFrame(error, false))
    c.ws.close(1000)
  }

  function leave(c: Connection) {
    connections.delete(c)
    for (const g of c.joined ?? []) {
      const members = groups.get(g)
      members?.delete(c)
      if (members?.size === 0) groups.delete(g)
    }
    c.joined = null
  }

  function onRecord(c: Connection, record: string) {
    let message: { type?: unknown; protocol?: unknown; version?: unknown; invocationId?: unknown }
    try {
      message = JSON.parse(record)
    } catch {
      end(c, 'Connection closed with an error.')
      return
    }
    if (!c.shaken) {
      if (message.protocol !== 'json' || message.version !== 1) {
        c.ws.send(
          handshakeReply(
            `The protocol '${String(message.protocol)}' (version ${String(message.version)}) is not supported.`,
          ),
        )
        c.ws.close(1000)
        return
      }
      const admit = c.admit!
      c.admit = null
      c.shaken = true
      c.lastOut = Date.now()
      c.ws.send(handshakeReply())
      // Access is decided after the handshake reply, as upstream hubs do in their on-connect
      // step; a refused client gets a close message that tells it not to reconnect.
      admit().then(
        (joined) => {
          if (c.ws.readyState !== c.ws.OPEN) return
          if (!joined) return end(c, 'Connection closed with an error.')
          c.joined = joined
          for (const g of joined) {
            const members = groups.get(g) ?? new Set()
            groups.set(g, members)
            members.add(c)
          }
        },
        () => end(c, 'Connection closed with an error.'),
      )
      return
    }
    switch (message.type) {
      case MessageType.Close:
        c.ws.close(1000)
        return
      case MessageType.Invocation:
      case MessageType.StreamInvocation:
        // These hubs have no methods for clients to call.
        if (typeof message.invocationId === 'string')
          c.ws.send(completionErrorFrame(message.invocationId, 'Method does not exist.'))
        return
      default:
        // Pings and anything else only show the client is alive.
        return
    }
  }

  const sweep = setInterval(
    () => {
      const now = Date.now()
      for (const c of connections) {
        if (!c.shaken) {
          if (now - c.opened > t.handshakeMs) c.ws.terminate()
        } else if (now - c.lastIn > t.timeoutMs) {
          end(c, 'Server timeout elapsed without receiving a message from the client.')
        } else if (now - c.lastOut >= t.pingMs) {
          send(c, PING)
        }
      }
    },
    Math.min(1000, t.pingMs),
  )
  sweep.unref()

  return {
    name,

    /** Takes a freshly upgraded socket through the handshake and admission. */
    accept(ws: WebSocket, admit: Admission) {
      const now = Date.now()
      const c: Connection = {
        ws,
        shaken: false,
        joined: null,
        opened: now,
        lastIn: now,
        lastOut: now,
        pending: '',
        out: [],
        admit,
      }
      connections.add(c)
      ws.on('message', (data, isBinary) => {
        c.lastIn = Date.now()
        if (isBinary) return end(c, 'Connection closed with an error.')
        const { records, rest } = splitRecords(c.pending, data.toString())
        if (rest.length > MAX_RECORD) return end(c, 'Connection closed with an error.')
        c.pending = rest
        for (const record of records) onRecord(c, record)
      })
      ws.on('close', () => leave(c))
      ws.on('error', () => leave(c))
    },

    /** Pushes `target(...args)` to every admitted member of `group`. */
    broadcast(group: string, bytes: Buffer) {
      const members = groups.get(group)
      if (!members) return
      for (const c of members) send(c, bytes)
    },

    /** Members of a group now (tests and the bench). */
    count(group?: string): number {
      return group === undefined ? connections.size : (groups.get(group)?.size ?? 0)
    },

    /**
     * This server is about to stop: what is queued goes out, then each client is told to come
     * back (a close message allowing reconnection: SignalR clients reconnect, to another server
     * behind the proxy), and the socket closes as "going away".
     */
    goingAway() {
      flush()
      for (const c of connections) {
        if (c.ws.readyState !== c.ws.OPEN) continue
        if (c.shaken) c.ws.send(closeFrame('Server is shutting down.', true))
        c.ws.close(1001)
      }
    },

    /**
     * This server may have missed updates (its Redis subscription was down): every client is
     * told to reconnect (a close message allowing it), and clients read again what they show
     * once they are back.
     */
    resync() {
      flush()
      // Spread over up to 3 s (2 ms a client), so thousands of clients do not all come back
      // and read again in the same instant.
      const spreadMs = Math.min(3000, connections.size * 2)
      for (const c of connections) {
        const close = () => {
          if (c.ws.readyState !== c.ws.OPEN) return
          if (c.shaken) c.ws.send(closeFrame('Reconnect to catch up.', true))
          c.ws.close(1012)
        }
        setTimeout(close, Math.random() * spreadMs).unref()
      }
    },

    /** Shutting down: sockets close without a close message, so clients reconnect to the next server. */
    close() {
      clearInterval(sweep)
      for (const c of connections) c.ws.close(1001)
      connections.clear()
      groups.clear()
    },
  }
}
export type Hub = ReturnType<typeof createHub>
