#!/usr/bin/env node
// Pennant tunnel: turns a contest's WebSocket container proxy back into local TCP ports.
// One file, Node.js 20 or newer, nothing to install. Served by the contest site at
// /api/ext/tunnel.mjs.
//
//   node tunnel.mjs                              local daemon API on 127.0.0.1:3307 for the web client
//   node tunnel.mjs wss://site/api/proxy/<id>    one local port for one container, printed at start
//
// Options: --api <host:port> (daemon API address, default 127.0.0.1:3307), --allow <origin>
// (a site whose pages may use the daemon without asking; repeatable; the first one named in a
// direct URL is allowed too), --port <n> (direct mode's local port, default any), --lan (listen on
// all interfaces instead of loopback), --header "Name: value" (sent with every WebSocket upgrade,
// e.g. a Cookie for the organisers' test containers).
//
// The daemon API is the one the web client expects of a local tunnelling daemon: GET /version;
// GET /connect (202 usable, 201 pending, 403 not allowed); POST /connect {name, features, host,
// state}; GET /pool; POST /pool {remote, local}; DELETE /pool {local}.

import { createHash, randomBytes } from 'node:crypto'
import { createServer as createHttpServer } from 'node:http'
import { connect as connectTcp, createServer } from 'node:net'
import { connect as connectTls } from 'node:tls'

export const VERSION = '0.5.0'
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
/** Bytes waiting to be sent on either side before the other side is paused. */
const HIGH_WATER = 1024 * 1024

// ---- A minimal RFC 6455 client ------------------------------------------------------------

/** XORs `data` with the 4-byte `key` in place (a word at a time where it can). */
function mask(data, key) {
  const n = data.length
  const words = n >> 2
  if (words > 0 && data.byteOffset % 4 === 0) {
    const k = key.readUInt32LE(0)
    const view = new Uint32Array(data.buffer, data.byteOffset, words)
    for (let i = 0; i < words; i++) view[i] ^= k
  } else {
    for (let i = 0; i < words * 4; i++) data[i] ^= key[i & 3]
  }
  for (let i = words * 4; i < n; i++) data[i] ^= key[i & 3]
  return data
}

/**
 * Writes one client frame (FIN set, masked) to `socket`; the caller's buffer is left alone. The
 * payload gets a buffer of its own, so large ones are word-aligned and mask quickly. Returns
 * what `socket.write` does (false: wait for 'drain').
 */
function writeFrame(socket, opcode, payload) {
  const len = payload.length
  const extra = len < 126 ? 0 : len < 65536 ? 2 : 8
  const head = Buffer.allocUnsafe(2 + extra + 4)
  head[0] = 0x80 | opcode
  head[1] = 0x80 | (len < 126 ? len : len < 65536 ? 126 : 127)
  if (extra === 2) head.writeUInt16BE(len, 2)
  if (extra === 8) head.writeBigUInt64BE(BigInt(len), 2)
  const key = randomBytes(4)
  key.copy(head, 2 + extra)
  const body = Buffer.allocUnsafe(len)
  payload.copy(body)
  mask(body, key)
  socket.cork()
  socket.write(head)
  const ok = socket.write(body)
  socket.uncork()
  return ok
}

/**
 * Opens a WebSocket to `url` and calls back with `{ socket, send(buf) → bool, close(code),
 * onMessage, onClose }` once upgraded; rejects with the server's status otherwise.
 */
export function openWebSocket(url, headers = {}) {
  const u = new URL(url)
  const secure = u.protocol === 'wss:' || u.protocol === 'https:'
  const port = Number(u.port || (secure ? 443 : 80))
  const key = randomBytes(16).toString('base64')
  return new Promise((resolve, reject) => {
    const socket = secure
      ? connectTls({ host: u.hostname, port, servername: u.hostname })
      : connectTcp({ host: u.hostname, port })
    socket.setNoDelay(true)
    const lines = [
      `GET ${u.pathname}${u.search} HTTP/1.1`,
      `Host: ${u.host}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${key}`,
      'Sec-WebSocket-Version: 13',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ]
    socket.once(secure ? 'secureConnect' : 'connect', () => socket.write(`${lines.join('\r\n')}\r\n\r\n`))
    socket.once('error', reject)
    let head = Buffer.alloc(0)
    const onHandshake = (chunk) => {
      head = Buffer.concat([head, chunk])
      const end = head.indexOf('\r\n\r\n')
      if (end < 0) return
      socket.off('data', onHandshake)
      const [status, ...fields] = head.subarray(0, end).toString('latin1').split('\r\n')
      const code = Number(status.split(' ')[1])
      const accept = fields
        .find((f) => /^sec-websocket-accept:/i.test(f))
        ?.split(':')[1]
        ?.trim()
      const expected = createHash('sha1')
        .update(key + GUID)
        .digest('base64')
      if (code !== 101 || accept !== expected) {
        socket.destroy()
        const body = head.subarray(end + 4).toString()
        return reject(Object.assign(new Error(`upgrade refused: ${status} ${body}`), { status: code, body }))
      }
      socket.off('error', reject)
      resolve(wrap(socket, head.subarray(end + 4)))
    }
    socket.on('data', onHandshake)
  })
}

/** Frames over an upgraded socket: reading, ping/pong, close. */
function wrap(socket, rest) {
  let buffered = rest
  let fragments = []
  let closed = false
  const ws = {
    socket,
    onMessage: () => {},
    onClose: () => {},
    /** Sends a binary message; false when the socket's buffer is full (wait for 'drain'). */
    send(data) {
      if (closed) return false
      return writeFrame(socket, 2, data)
    },
    close(code = 1000) {
      if (closed) return
      closed = true
      const body = Buffer.alloc(2)
      body.writeUInt16BE(code)
      writeFrame(socket, 8, body)
      socket.end()
      setTimeout(() => socket.destroy(), 2000).unref()
    },
  }
  const finish = () => {
    if (ws.done) return
    ws.done = true
    closed = true
    ws.onClose()
  }
  const parse = () => {
    for (;;) {
      if (buffered.length < 2) return
      const fin = (buffered[0] & 0x80) !== 0
      const opcode = buffered[0] & 0x0f
      const masked = (buffered[1] & 0x80) !== 0
      let len = buffered[1] & 0x7f
      let at = 2
      if (len === 126) {
        if (buffered.length < 4) return
        len = buffered.readUInt16BE(2)
        at = 4
      } else if (len === 127) {
        if (buffered.length < 10) return
        len = Number(buffered.readBigUInt64BE(2))
        at = 10
      }
      const keyAt = at
      if (masked) at += 4
      if (buffered.length < at + len) return
      let payload = buffered.subarray(at, at + len)
      if (masked) payload = mask(Buffer.from(payload), buffered.subarray(keyAt, keyAt + 4))
      buffered = buffered.subarray(at + len)
      if (opcode === 8) {
        if (!closed) {
          closed = true
          writeFrame(socket, 8, payload.subarray(0, 2))
          socket.end()
        }
        setTimeout(() => socket.destroy(), 2000).unref()
        return finish()
      }
      if (opcode === 9) writeFrame(socket, 10, payload)
      else if (opcode === 0 || opcode === 1 || opcode === 2) {
        fragments.push(payload)
        if (fin) {
          const message = fragments.length === 1 ? fragments[0] : Buffer.concat(fragments)
          fragments = []
          ws.onMessage(message)
        }
      }
    }
  }
  socket.on('data', (chunk) => {
    buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk
    parse()
  })
  socket.on('close', finish)
  socket.on('error', () => socket.destroy())
  queueMicrotask(parse)
  return ws
}

// ---- Forwarding -------------------------------------------------------------------------

/** Carries one local connection over a fresh WebSocket to `remote`, with back-pressure both ways. */
async function forward(local, remote, headers, log) {
  local.pause()
  let ws
  try {
    ws = await openWebSocket(remote, headers)
  } catch (err) {
    log(`cannot reach ${remote}: ${err.message}`)
    local.destroy()
    return
  }
  ws.onMessage = (data) => {
    if (!local.write(data)) {
      ws.socket.pause()
      local.once('drain', () => ws.socket.resume())
    }
  }
  ws.onClose = () => local.end()
  local.on('data', (chunk) => {
    if (!ws.send(chunk) || ws.socket.writableLength > HIGH_WATER) {
      local.pause()
      ws.socket.once('drain', () => local.resume())
    }
  })
  local.on('end', () => ws.close(1000))
  local.on('error', () => ws.close(1001))
  local.on('close', () => ws.close(1000))
  local.resume()
}

/** A local TCP listener forwarding every connection to `remote`; resolves once listening. */
function listener(remote, address, headers, log) {
  const [host, port] = splitAddress(address)
  const server = createServer((local) => {
    local.setNoDelay(true)
    forward(local, remote, headers, log)
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, () => {
      const a = server.address()
      resolve({ server, local: `${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}` })
    })
  })
}

function splitAddress(address) {
  const cut = address.lastIndexOf(':')
  if (cut < 0) return ['127.0.0.1', Number(address)]
  return [address.slice(0, cut).replace(/^\[|\]$/g, ''), Number(address.slice(cut + 1))]
}

// ---- The daemon API ---------------------------------------------------------------------

/**
 * Serves the local daemon API on `api` (host:port). Pages of an allowed origin may open
 * instances; other origins ask with POST /connect and stay pending (printed for the user).
 */
export async function startDaemon({ api = '127.0.0.1:3307', allow = [], lan = false, headers = {}, log }) {
  const allowed = new Set(allow.map((o) => new URL(o).origin))
  const pending = new Map()
  /** Instances by local address, each with the origin that opened it. */
  const pool = new Map()

  const originOf = (req) => req.headers.origin ?? null
  const cors = (req, res) => {
    const origin = originOf(req)
    if (origin) {
      res.setHeader('Access-Control-Allow-Origin', origin)
      res.setHeader('Vary', 'Origin')
      res.setHeader('Access-Control-Allow-Methods', 'GET, POST, DELETE, OPTIONS')
      res.setHeader('Access-Control-Allow-Headers', 'Content-Type')
      res.setHeader('Access-Control-Allow-Private-Network', 'true')
    }
  }
  const reply = (res, status, body) => {
    res.writeHead(status, { 'Content-Type': 'application/json' })
    res.end(body === undefined ? '' : JSON.stringify(body))
  }
  const readJson = (req) =>
    new Promise((resolve) => {
      let text = ''
      req.on('data', (d) => {
        text += d
        if (text.length > 65536) req.destroy()
      })
      req.on('end', () => {
        try {
          resolve(JSON.parse(text || '{}'))
        } catch {
          resolve(null)
        }
      })
    })
  // Requests without an Origin come from a program on this machine, not a web page.
  const usable = (req) => originOf(req) === null || allowed.has(originOf(req))

  const server = createHttpServer(async (req, res) => {
    cors(req, res)
    const url = new URL(req.url ?? '/', 'http://localhost')
    try {
      if (req.method === 'OPTIONS') return reply(res, 204)
      if (url.pathname === '/version' && req.method === 'GET') return reply(res, 200, { version: VERSION })
      if (url.pathname === '/connect') {
        const origin = originOf(req)
        if (req.method === 'GET') {
          if (usable(req)) return reply(res, 202, { state: 'usable' })
          return pending.has(origin)
            ? reply(res, 201, { state: 'pending' })
            : reply(res, 403, { state: 'invalid' })
        }
        if (req.method === 'POST') {
          const body = await readJson(req)
          if (!body || typeof body.name !== 'string') return reply(res, 400, 'name is required')
          if (usable(req)) return reply(res, 202, { state: 'usable' })
          if (!pending.has(origin))
            log(`${origin} (${body.name}) asks to use this tunnel; restart with --allow ${origin} to let it`)
          pending.set(origin, body)
          return reply(res, 201, { state: 'pending' })
        }
      }
      if (url.pathname === '/pool') {
        if (!usable(req)) return reply(res, 403, 'this site is not allowed to use the tunnel')
        const origin = originOf(req)
        const mine = [...pool.values()].filter((i) => i.origin === origin)
        if (req.method === 'GET')
          return reply(
            res,
            200,
            mine.map(({ remote, local }) => ({ remote, local })),
          )
        const body = await readJson(req)
        if (req.method === 'POST') {
          if (!body || typeof body.remote !== 'string' || !/^wss?:\/\//.test(body.remote))
            return reply(res, 400, 'remote must be a ws:// or wss:// URL')
          const same = mine.find((i) => i.remote === body.remote)
          if (same) return reply(res, 200, { remote: same.remote, local: same.local })
          const wanted = typeof body.local === 'string' && body.local ? body.local : '127.0.0.1:0'
          const address = lan ? wanted.replace(/^(127\.0\.0\.1|localhost)(?=:)/, '0.0.0.0') : wanted
          const opened = await listener(body.remote, address, headers, log)
          pool.set(opened.local, { origin, remote: body.remote, local: opened.local, server: opened.server })
          log(`${opened.local} → ${body.remote}`)
          return reply(res, 201, { remote: body.remote, local: opened.local })
        }
        if (req.method === 'DELETE') {
          const found = pool.get(body?.local)
          if (!found || found.origin !== origin) return reply(res, 404, 'no such instance')
          pool.delete(found.local)
          found.server.close()
          log(`${found.local} closed`)
          return reply(res, 200, { remote: found.remote, local: found.local })
        }
      }
      return reply(res, 404, 'not found')
    } catch (err) {
      return reply(res, 500, String(err?.message ?? err))
    }
  })
  const [host, port] = splitAddress(api)
  await new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, host, resolve)
  })
  const a = server.address()
  return {
    api: `${a.address}:${a.port}`,
    close() {
      for (const i of pool.values()) i.server.close()
      server.close()
    },
  }
}

// ---- Command line ----------------------------------------------------------------------

function parseArgs(argv) {
  const opts = { allow: [], headers: {}, lan: false, api: '127.0.0.1:3307', port: 0, url: null }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    const next = () => {
      if (i + 1 >= argv.length) throw new Error(`${a} needs a value`)
      return argv[++i]
    }
    if (a === '--api') opts.api = next()
    else if (a === '--allow') opts.allow.push(next())
    else if (a === '--port') opts.port = Number(next())
    else if (a === '--lan') opts.lan = true
    else if (a === '--header') {
      const h = next()
      const cut = h.indexOf(':')
      if (cut < 1) throw new Error('--header takes "Name: value"')
      opts.headers[h.slice(0, cut).trim()] = h.slice(cut + 1).trim()
    } else if (a === '--help' || a === '-h') opts.help = true
    else if (/^wss?:\/\//.test(a)) opts.url = a
    else throw new Error(`unknown argument ${a}`)
  }
  return opts
}

async function main() {
  const log = (m) => console.log(m)
  let opts
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (err) {
    console.error(`${err.message}; see --help`)
    process.exit(2)
  }
  if (opts.help) {
    console.log(
      'usage: node tunnel.mjs [--api host:port] [--allow origin]... [--lan] [--header "Name: value"]\n' +
        '       node tunnel.mjs wss://site/api/proxy/<id> [--port n] [--lan] [--header "Name: value"]',
    )
    return
  }
  if (opts.url) {
    const host = opts.lan ? '0.0.0.0' : '127.0.0.1'
    const { local } = await listener(opts.url, `${host}:${opts.port}`, opts.headers, log)
    log(`listening on ${local} → ${opts.url}`)
    return
  }
  const daemon = await startDaemon({ ...opts, log })
  log(`tunnel ${VERSION}: daemon API on http://${daemon.api}`)
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('tunnel.mjs')) await main()
