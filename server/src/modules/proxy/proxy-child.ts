/**
 * The proxy's own process (forked by proxy.service.ts): it carries every proxied connection so
 * that their bytes (WebSocket framing, socket writes, capture) never queue on the API's thread.
 * The API checks a request (404, 400, the limit, admins for noinst), asks this process to dial
 * the container (418 when that fails), then hands over the player's socket as it stands after
 * the HTTP upgrade request; the handshake, the piping, the time cap and capture happen here.
 * It runs at a lower CPU priority: when the machine is busy, bulk traffic waits, the API does not.
 */

import type { IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import os from 'node:os'
import { type WebSocket, WebSocketServer } from 'ws'
import type { ConnectionRecorder, Endpoint, ProxyEntry } from './proxy.service.ts'
import { createRecorder } from './recorder.ts'

/** How long a TCP connect to a container may take before the client gets its 418. */
const CONNECT_TIMEOUT_MS = 5_000
/** A dialled connection whose player socket never came (the API lost it) is dropped after this. */
const UNCLAIMED_MS = 30_000
/**
 * Bytes sent to the WebSocket and not yet written to its socket: above this the container's
 * socket is paused, so a slow player never grows the proxy's memory.
 */
const HIGH_WATER = 1024 * 1024
/** Niceness of this process (0 is the API's): the kernel gives it the CPU the API leaves. */
export const PROXY_NICE = 10

/** The API's messages to this process. */
export type ToChild =
  | { t: 'dial'; id: string; host: string; port: number }
  /** Comes with the player's socket as its handle. */
  | {
      t: 'take'
      id: string
      headers: Record<string, string | string[] | undefined>
      url: string
      /** Bytes read past the upgrade request (base64). */
      head: string
      entry: ProxyEntry
      player: Endpoint
      maxMs: number
    }
  | { t: 'drop'; id: string }
  | { t: 'remove'; container: string }
  | { t: 'buffered'; q: number }
  | { t: 'close' }

/** This process's messages to the API. */
export type FromChild =
  | { t: 'dialed'; id: string; error?: string }
  /** The connection ended (or never started): its slot is free. */
  | { t: 'closed'; id: string }
  | { t: 'buffered'; q: number; bytes: number }
  | { t: 'log'; level: 'warn' | 'debug'; msg: string; container?: string; err?: string }

const tell = (m: FromChild) => {
  if (process.connected) process.send?.(m)
}
const log = (level: 'warn' | 'debug') => (obj: { err?: unknown; container?: string }, msg: string) =>
  tell({
    t: 'log',
    level,
    msg,
    container: obj.container,
    err: obj.err === undefined ? undefined : String(obj.err),
  })

const captureRoot = process.argv[2]
const recorder = captureRoot ? createRecorder({ root: captureRoot, log: { warn: log('warn') } }) : null
// The handshake's limits are the API's (app.ts registers the same maxPayload).
const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024, clientTracking: false })
/** Dialled, waiting for the player's socket. */
const dialled = new Map<string, { tcp: Socket; timer: NodeJS.Timeout }>()
/** Carried connections: how to end them, and which container they reach. */
const live = new Map<string, { ws: WebSocket | null; tcp: Socket; container: string; end: () => void }>()

function dial(id: string, host: string, port: number) {
  const tcp = connect({
    host,
    port,
    noDelay: true,
    // A container gone without a word (another server removed it) is noticed eventually.
    keepAlive: true,
    keepAliveInitialDelay: 30_000,
  })
  const timer = setTimeout(() => tcp.destroy(new Error('connection timed out')), CONNECT_TIMEOUT_MS)
  tcp.once('connect', () => {
    clearTimeout(timer)
    tcp.removeAllListeners('error')
    tcp.on('error', (err) => log('debug')({ err }, 'proxied connection failed'))
    const unclaimed = setTimeout(() => drop(id), UNCLAIMED_MS)
    dialled.set(id, { tcp, timer: unclaimed })
    tell({ t: 'dialed', id })
  })
  tcp.once('error', (err) => {
    clearTimeout(timer)
    tell({ t: 'dialed', id, error: err.message })
  })
}

function drop(id: string) {
  const d = dialled.get(id)
  if (!d) return
  dialled.delete(id)
  clearTimeout(d.timer)
  d.tcp.destroy()
  tell({ t: 'closed', id })
}

/** Completes the player's WebSocket handshake on `socket`, then carries bytes both ways. */
function take(m: Extract<ToChild, { t: 'take' }>, socket: Socket | undefined) {
  const d = dialled.get(m.id)
  if (d) {
    dialled.delete(m.id)
    clearTimeout(d.timer)
  }
  if (!d || !socket) {
    socket?.destroy()
    d?.tcp.destroy()
    tell({ t: 'closed', id: m.id })
    return
  }
  const { tcp } = d
  let done = false
  let recording: ConnectionRecorder | null = null
  const finish = () => {
    if (done) return
    done = true
    clearTimeout(cap)
    live.delete(m.id)
    tcp.destroy()
    recording?.close()
    tell({ t: 'closed', id: m.id })
  }
  const conn = {
    ws: null as WebSocket | null,
    tcp,
    container: m.entry.id,
    end: () => {
      conn.ws?.terminate()
      socket.destroy()
      finish()
    },
  }
  live.set(m.id, conn)
  const cap = setTimeout(() => {
    conn.ws?.close(1000, 'connection time limit reached')
    tcp.destroy()
    finish()
  }, m.maxMs)
  // A handshake that fails (a broken client) ends here: the socket closes without a WebSocket.
  socket.once('close', () => {
    if (!conn.ws) finish()
  })
  const req = { method: 'GET', url: m.url, headers: m.headers, socket } as unknown as IncomingMessage
  wss.handleUpgrade(req, socket, Buffer.from(m.head, 'base64'), (ws) => {
    conn.ws = ws
    if (done) return ws.terminate()
    if (m.entry.capture && recorder && m.entry.target) {
      try {
        recording = recorder(m.entry, m.id, m.player, m.entry.target)
      } catch (err) {
        log('warn')({ err }, 'traffic capture could not start')
      }
    }
    pipe(ws, tcp, () => recording, finish)
  })
}

/**
 * Carries bytes both ways until either side closes. Back-pressure: the container's socket pauses
 * while the WebSocket has {@link HIGH_WATER} bytes unsent, and the WebSocket pauses while the
 * container's socket does not take more.
 */
function pipe(ws: WebSocket, tcp: Socket, recording: () => ConnectionRecorder | null, finish: () => void) {
  let unsent = 0
  const sent = (n: number) => () => {
    unsent -= n
    if (unsent < HIGH_WATER / 2 && tcp.isPaused() && !tcp.destroyed) tcp.resume()
  }
  tcp.on('data', (chunk: Buffer) => {
    recording()?.data(false, chunk)
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
  ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
    const chunk = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data)
    recording()?.data(true, chunk)
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
  // The time cap closed the WebSocket before the handshake finished.
  if (tcp.destroyed) finish()
}

process.on('message', (m: ToChild, handle?: Socket) => {
  switch (m.t) {
    case 'dial':
      return dial(m.id, m.host, m.port)
    case 'take':
      return take(m, handle)
    case 'drop':
      return drop(m.id)
    case 'remove':
      for (const c of live.values()) {
        if (c.container !== m.container) continue
        c.ws?.close(1001, 'the container was removed')
        c.tcp.destroy()
      }
      return
    case 'buffered': {
      let bytes = 0
      for (const c of live.values()) bytes += (c.ws?.bufferedAmount ?? 0) + c.tcp.writableLength
      return tell({ t: 'buffered', q: m.q, bytes })
    }
    case 'close':
      for (const id of [...dialled.keys()]) drop(id)
      for (const c of [...live.values()]) c.end()
      // Captures finish writing, then nothing keeps the process alive.
      process.disconnect()
      return
  }
})
// The API is gone (crashed or killed): nothing here is reachable any more.
process.on('disconnect', () => setTimeout(() => process.exit(0), 2000).unref())

try {
  os.setPriority(PROXY_NICE)
} catch {
  // Not allowed to lower it (some sandboxes): carry on at the API's priority.
}
