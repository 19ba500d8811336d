import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { serverDir } from '../../src/paths.ts'
import { createTestDatabase } from '../helpers/database.ts'

const ADMIN_PASSWORD = 'Shutd0wn-Adm1n'
const RS = '\x1e'
// real wait: a real server process shutting down with requests in flight
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Running {
  child: ChildProcess
  port: number
  /** Everything the server printed so far. */
  output: () => string
  exited: Promise<number | null>
}

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c()
})

/** The server's own entry (main.ts, which owns the signals) as a real process on its own database. */
async function startServer(env: Record<string, string>): Promise<Running> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-shutdown-'))
  const database = process.env.TEST_DATABASE_URL ? await createTestDatabase() : undefined
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(serverDir, 'src/main.ts')], {
    cwd: serverDir,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: database?.url ?? '',
      PENNANT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CONTAINER_BACKEND: 'none',
      LOG_LEVEL: 'info',
      WEB_DIR: path.join(dataDir, 'no-web-client'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let seen = ''
  child.stdout!.on('data', (d: Buffer) => {
    seen += d.toString()
  })
  child.stderr!.on('data', (d: Buffer) => {
    seen += d.toString()
  })
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  cleanups.push(async () => {
    if (child.exitCode === null) child.kill('SIGKILL')
    await exited
    await database?.close()
    await rm(dataDir, { recursive: true, force: true })
  })
  const port = await new Promise<number>((resolve, reject) => {
    const check = () => {
      const found = seen.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)?.[1]
      if (found) resolve(Number(found))
    }
    child.stdout!.on('data', check)
    exited.then((code) => reject(new Error(`server exited (${code}) before listening: ${seen}`)))
  })
  return { child, port, output: () => seen, exited }
}

/** A POST whose body is sent in two parts, the second when `finish` is called. */
function slowPost(port: number, url: string, body: string) {
  const bytes = Buffer.from(body)
  const req = http.request({
    host: '127.0.0.1',
    port,
    path: url,
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': bytes.length },
    agent: false,
  })
  const response = new Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let text = ''
        res.on('data', (d: Buffer) => {
          text += d.toString()
        })
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, headers: res.headers }))
      })
      req.on('error', reject)
    },
  )
  req.write(bytes.subarray(0, 10))
  return {
    response,
    finish: () => req.end(bytes.subarray(10)),
  }
}

async function getStatus(port: number, url: string): Promise<number | string> {
  try {
    return (await fetch(`http://127.0.0.1:${port}${url}`)).status
  } catch (err) {
    return ((err as Error & { cause?: { code?: string } }).cause?.code ?? String(err)) as string
  }
}

describe('graceful shutdown of a real server process', () => {
  it('on SIGTERM: ready says 503 at once, hubs are told to reconnect, an in-flight request finishes, then it exits 0', {
    timeout: 90_000,
  }, async () => {
    const server = await startServer({ SHUTDOWN_DELAY: '2', SHUTDOWN_TIMEOUT: '20' })
    const { port } = server
    expect(await getStatus(port, '/healthz/ready')).toBe(200)

    // An admin with an open admin-hub connection.
    const login = await fetch(`http://127.0.0.1:${port}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'Admin', password: ADMIN_PASSWORD }),
    })
    expect(login.status).toBe(200)
    const cookie = login.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ')
    const ws = new WebSocket(`ws://127.0.0.1:${port}/hub/admin?id=x`, { headers: { cookie } })
    const frames: string[] = []
    ws.on('message', (d: Buffer) => frames.push(d.toString()))
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    await new Promise((resolve, reject) => {
      ws.once('open', resolve)
      ws.once('error', reject)
    })
    ws.send(`{"protocol":"json","version":1}${RS}`)
    // The handshake answer comes first; the admin log (this sign-in, say) may stream after it.
    await expect.poll(() => frames[0]).toBe(`{}${RS}`)

    // A request in flight: its body is not all there when the signal comes.
    const inFlight = slowPost(
      port,
      '/api/account/login',
      JSON.stringify({ userName: 'Admin', password: ADMIN_PASSWORD }),
    )
    // real wait: the request is in flight on the real server
    await sleep(200)
    const signalled = Date.now()
    server.child.kill('SIGTERM')

    // Draining: not ready (the proxy stops sending), still alive, still accepting for now.
    await expect.poll(() => getStatus(port, '/healthz/ready'), { timeout: 1500, interval: 100 }).toBe(503)
    expect(await getStatus(port, '/healthz/live')).toBe(200)
    const body = await (await fetch(`http://127.0.0.1:${port}/healthz/ready`)).json()
    expect(body).toEqual({ status: 'Draining' })

    // After SHUTDOWN_DELAY the hub clients are told to come back elsewhere, and the port closes.
    expect(await closed).toBe(1001)
    expect(Date.now() - signalled).toBeGreaterThanOrEqual(1900)
    expect(frames.join('')).toContain(
      `{"type":7,"error":"Server is shutting down.","allowReconnect":true}${RS}`,
    )
    await expect
      .poll(() => getStatus(port, '/healthz/live'), { timeout: 5000, interval: 100 })
      .toBe('ECONNREFUSED')
    expect(server.child.exitCode).toBeNull()

    // The request in flight still gets its whole answer, then the process ends cleanly.
    inFlight.finish()
    const answer = await inFlight.response
    expect(answer.status).toBe(200)
    // The contract's empty 200, with the session it opened.
    expect(answer.body).toBe('')
    expect(String(answer.headers['set-cookie'])).toContain('pennant_token=')
    expect(answer.headers.connection).toBe('close')
    expect(await server.exited).toBe(0)
    expect(server.output()).toContain('"msg":"stopped"')
  })

  it('cuts a request still running at SHUTDOWN_TIMEOUT and exits all the same', {
    timeout: 90_000,
  }, async () => {
    const server = await startServer({ SHUTDOWN_DELAY: '0', SHUTDOWN_TIMEOUT: '1' })
    const stuck = slowPost(
      server.port,
      '/api/account/login',
      JSON.stringify({ userName: 'x', password: 'y' }),
    )
    stuck.response.catch(() => {})
    // real wait: the request is in flight on the real server
    await sleep(200)
    const signalled = Date.now()
    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const took = Date.now() - signalled
    expect(took).toBeGreaterThanOrEqual(900)
    expect(took).toBeLessThan(10_000)
    await expect(stuck.response).rejects.toThrow(/socket hang up|ECONNRESET/)
    expect(server.output()).toContain('requests still running at the shutdown deadline')
    expect(server.output()).toContain('some requests were cut at the deadline')
  })
})
