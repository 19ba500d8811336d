/**
 * `npm run bench -- --proxy`: the platform proxy (CONTAINER_PORT_MAPPING=PlatformProxy) against
 * a direct TCP connection to the same container's echo service in the same run, then 200
 * proxied connections exchanging traffic while players submit flags, against the same submits
 * without them.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import net from 'node:net'
import path from 'node:path'
import type pg from 'pg'
import { correctFlagSubmits, type LoadResult, load } from './load.ts'
import { clientsApart, interactiveClients, openWs } from './proxy-clients.ts'
import type { Seeded } from './seed.ts'
import { sessionCookie } from './seed.ts'
import { median } from './stats.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const MiB = 1024 * 1024

export interface ProxyOptions {
  /** MiB sent (and echoed back) per throughput run. */
  megabytes: number
  /** Throughput runs each way, alternated. */
  rounds: number
  connections: number
  /** Containers the connections are spread over (each accepts 32). */
  containers: number
  seconds: number
  submitRate: number
  /** The interactive connections' clients run in a process of their own. */
  clientsApart: boolean
}

/** Sends `total` bytes in 64 KiB writes through `write`, resolves when as many came back. */
function pump(
  write: (chunk: Buffer) => boolean,
  onDrain: (resume: () => void) => void,
  total: number,
  subscribe: (onData: (n: number) => void) => void,
): Promise<number> {
  const chunk = randomBytes(64 * 1024)
  return new Promise((resolve) => {
    const t0 = performance.now()
    let got = 0
    let sent = 0
    subscribe((n) => {
      got += n
      if (got >= total) resolve(performance.now() - t0)
    })
    const more = () => {
      while (sent < total) {
        sent += chunk.length
        if (!write(chunk)) return onDrain(more)
      }
    }
    more()
  })
}

function direct(host: string, port: number, total: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.connect({ host, port }, async () => {
      const ms = await pump(
        (c) => s.write(c),
        (resume) => s.once('drain', resume),
        total,
        (on) => s.on('data', (d: Buffer) => on(d.length)),
      )
      s.destroy()
      resolve(ms)
    })
    s.on('error', reject)
  })
}

async function proxied(url: string, total: number): Promise<number> {
  const ws = await openWs(url)
  let waiting: (() => void) | null = null
  const ms = await pump(
    (c) => {
      ws.send(c, () => {
        if (waiting && ws.bufferedAmount < MiB) {
          const w = waiting
          waiting = null
          w()
        }
      })
      return ws.bufferedAmount < 4 * MiB
    },
    (resume) => {
      waiting = resume
    },
    total,
    (on) => ws.on('message', (d: Buffer) => on(d.length)),
  )
  ws.close()
  return ms
}

/** The tunnel command in direct mode, as a player runs it; its local address. */
function startTunnel(root: string, url: string) {
  const child = spawn(process.execPath, [path.join(root, 'server/assets/tunnel.mjs'), url], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  return new Promise<{ kill: () => void; port: number }>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = out.match(/listening on 127\.0\.0\.1:(\d+)/)
      if (m) resolve({ kill: () => child.kill(), port: Number(m[1]) })
    })
    child.once('exit', (code) => reject(new Error(`tunnel exited with ${code}: ${out}`)))
  })
}

const mbps = (bytes: number, ms: number) => (bytes * 2) / MiB / (ms / 1000)

export async function proxyBench(ctx: {
  port: number
  root: string
  client: pg.Client
  world: Seeded
  challengeId: number
  opts: ProxyOptions
  say: (line: string) => void
}) {
  const { port, client, world, challengeId, opts, say } = ctx
  const base = `http://127.0.0.1:${port}`
  const wsBase = `ws://127.0.0.1:${port}`
  const headers = (token: string): Record<string, string> => ({
    cookie: sessionCookie(token),
    'x-xsrf-token': 'bench',
  })
  const containerPath = `/api/game/${world.gameId}/container/${challengeId}`
  const entries: string[] = []
  for (let i = 0; i < opts.containers; i++) {
    const team = world.teams[i]!
    const res = await fetch(base + containerPath, { method: 'POST', headers: headers(team.token) })
    const body = (await res.json()) as { entry?: string }
    if (res.status !== 200 || !body.entry) throw new Error(`start: ${res.status} ${JSON.stringify(body)}`)
    entries.push(body.entry)
  }
  const row = await client.query('select ip, port from containers where id = $1', [entries[0]])
  const { ip, port: echoPort } = row.rows[0] as { ip: string; port: number }
  const url = (i: number) => `${wsBase}/api/proxy/${entries[i % entries.length]}`
  // Wait for the echo service.
  for (let tries = 0; ; tries++) {
    try {
      await direct(ip, echoPort, 1024)
      await proxied(url(0), 1024)
      break
    } catch (err) {
      if (tries > 50) throw err
      await sleep(200)
    }
  }

  // 1. One connection's throughput: echo of `megabytes` (bytes both ways counted).
  const total = opts.megabytes * MiB
  const tunnel = await startTunnel(ctx.root, url(0))
  const figures = { direct: [] as number[], proxied: [] as number[], tunnel: [] as number[] }
  for (let r = 0; r < opts.rounds; r++) {
    figures.direct.push(mbps(total, await direct(ip, echoPort, total)))
    figures.proxied.push(mbps(total, await proxied(url(0), total)))
    figures.tunnel.push(mbps(total, await direct('127.0.0.1', tunnel.port, total)))
  }
  tunnel.kill()
  const d = median(figures.direct)
  const p = median(figures.proxied)
  const t = median(figures.tunnel)
  const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ')
  say(
    `One connection, ${opts.megabytes} MiB echoed (MiB/s of both directions together), median of ${opts.rounds}:`,
  )
  say(`  direct TCP to the container:       ${d.toFixed(0)} MiB/s  (${list(figures.direct)})`)
  say(`  through the proxy (ws client):     ${p.toFixed(0)} MiB/s  (${list(figures.proxied)})`)
  say(`  through tunnel.mjs and the proxy:  ${t.toFixed(0)} MiB/s  (${list(figures.tunnel)})`)
  say(`  → proxy ${((p / d) * 100).toFixed(0)}% of direct (target ≥ 50%) ${p / d >= 0.5 ? 'met' : 'NOT met'}`)

  // 2. Flag submits alone, then with `connections` proxied connections exchanging traffic.
  const nextSubmit = correctFlagSubmits(world.gameId, world.teams.slice(opts.containers), headers)
  const submits = (seconds: number) =>
    load({
      port,
      concurrency: 16,
      seconds,
      rate: opts.submitRate,
      next: nextSubmit,
    })
  const short = (r: LoadResult) =>
    `p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.requests} requests, ${r.perSecond.toFixed(0)}/s, statuses ${JSON.stringify(r.statuses)}${r.errors ? `, ${r.errors} errors` : ''})`
  say('')
  say(`Flag submits, ${opts.submitRate}/s paced, ${opts.seconds} s:`)
  await submits(2)
  const alone = await submits(opts.seconds)
  say(`  alone:                                   ${short(alone)}`)

  // Each connection: 4 KiB out, wait for the echo, 50 ms pause (an interactive player).
  const urls = Array.from({ length: opts.connections }, (_, i) => url(i))
  const clients = await (opts.clientsApart ? clientsApart : interactiveClients)(urls, opts.containers)
  await sleep(1000)
  clients.reset()
  const t0 = performance.now()
  const during = await submits(opts.seconds)
  const secs = (performance.now() - t0) / 1000
  const { rtts, bytes, closedEarly } = await clients.stop()
  rtts.sort((a, b) => a - b)
  const q = (x: number) => rtts[Math.min(rtts.length - 1, Math.floor(x * rtts.length))] ?? 0
  const where = opts.clientsApart ? 'their clients in another process' : 'their clients in this process'
  say(`  with ${opts.connections} proxied connections (${where}): ${short(during)}`)
  say(
    `    those connections: ${(bytes / MiB / secs).toFixed(1)} MiB/s in all, echo round trip p50 ${q(0.5).toFixed(1)} ms, p99 ${q(0.99).toFixed(1)} ms (${rtts.length} exchanges over ${opts.containers} containers)`,
  )
  if (closedEarly) say(`    ${closedEarly} of them closed before the end: the figures are not comparable`)
  const ratio = during.p99 / alone.p99
  say(
    `  → submit p99 ${ratio.toFixed(2)}× the run without them (target ≤ 2×) ${ratio <= 2 ? 'met' : 'NOT met'}`,
  )

  for (let i = 0; i < opts.containers; i++) {
    await fetch(base + containerPath, { method: 'DELETE', headers: headers(world.teams[i]!.token) }).catch(
      () => {},
    )
  }
}
