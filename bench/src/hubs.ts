/**
 * `npm run bench -- --hubs`: live-update figures (issue 15).
 *  1. `--clients 2000` raw WebSocket clients speaking the SignalR JSON protocol join the user hub
 *     of the game; `--notices 20` organiser notices are posted one after another, and for each
 *     the time from the POST to every client receiving it is recorded. Server memory per idle
 *     connection: the server's resident memory with the clients connected and idle, minus before.
 *  2. Correct flags are submitted as fast as they are accepted (the flag bench's load), first
 *     with no hub client (the baseline of the moment), then with one monitor-hub client watching:
 *     probe submissions (10 a second, from one team) are timed from their POST to their
 *     `ReceivedSubmissions` push.
 * The clients run in this process, on the same machine as the server.
 */
import { readFileSync } from 'node:fs'
import WebSocket from 'ws'
import { load } from './load.ts'
import type { Seeded } from './seed.ts'
import { sessionCookie } from './seed.ts'
import { median } from './stats.ts'

const RS = '\x1e'
const HANDSHAKE = `{"protocol":"json","version":1}${RS}`
const PING = `{"type":6}${RS}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** Resident memory of a process, in bytes. */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
  return Number(line?.[1] ?? 0) * 1024
}

const pct = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))]! : Number.NaN

/** A hub client: handshake, keep-alive pings, and a callback per pushed invocation. */
function connect(
  url: string,
  headers: Record<string, string>,
  onPush: (target: string, args: unknown[]) => void,
): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers, perMessageDeflate: false })
    let shaken = false
    ws.on('open', () => ws.send(HANDSHAKE))
    ws.on('error', reject)
    ws.on('message', (data) => {
      for (const record of data.toString().split(RS)) {
        if (!record) continue
        if (!shaken) {
          shaken = true
          resolve(ws)
          continue
        }
        const m = JSON.parse(record) as { type: number; target?: string; arguments?: unknown[] }
        if (m.type === 1) onPush(m.target!, m.arguments ?? [])
        else if (m.type === 7) ws.close()
      }
    })
  })
}

export async function hubBench(o: {
  port: number
  serverPid: number
  world: Seeded
  say: (line: string) => void
  clients: number
  notices: number
  seconds: number
  concurrency: number
}) {
  const { port, world, say } = o
  const base = `http://127.0.0.1:${port}`
  const login = await fetch(`${base}/api/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ userName: 'Admin', password: 'Bench4dmin' }),
  })
  const session = /pennant_token=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1]
  if (!session) throw new Error(`admin login failed: ${login.status}`)
  const adminHeaders = {
    cookie: sessionCookie(session),
    'x-xsrf-token': 'bench',
    'content-type': 'application/json',
  }

  // 1. Many players on the user hub.
  const arrivals = new Map<string, number[]>()
  const onNotice = (target: string, args: unknown[]) => {
    if (target !== 'ReceivedGameNotice') return
    const key = (args[0] as { values: string[] }).values[0]!
    const list = arrivals.get(key) ?? []
    arrivals.set(key, list)
    list.push(Date.now())
  }
  await sleep(1000)
  const rssBefore = rss(o.serverPid)
  const sockets: WebSocket[] = []
  let t0 = Date.now()
  for (let i = 0; i < o.clients; i += 200) {
    const batch = Math.min(200, o.clients - i)
    sockets.push(
      ...(await Promise.all(
        Array.from({ length: batch }, () =>
          connect(`ws://127.0.0.1:${port}/hub/user?game=${world.gameId}`, {}, onNotice),
        ),
      )),
    )
  }
  const connectMs = Date.now() - t0
  const pinger = setInterval(() => {
    for (const ws of sockets) if (ws.readyState === ws.OPEN) ws.send(PING)
  }, 10_000)

  const post = async (content: string) => {
    const res = await fetch(`${base}/api/edit/games/${world.gameId}/notices`, {
      method: 'POST',
      headers: adminHeaders,
      body: JSON.stringify({ content }),
    })
    if (res.status !== 200) throw new Error(`notice not posted: ${res.status} ${await res.text()}`)
  }
  const reachAll = async (key: string, timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs
    while ((arrivals.get(key)?.length ?? 0) < o.clients && Date.now() < deadline) await sleep(5)
    return arrivals.get(key)?.length ?? 0
  }
  // A first notice shows every client was admitted into the game's group.
  await post('warm-up')
  const warm = await reachAll('warm-up', 30_000)
  if (warm < o.clients) throw new Error(`only ${warm} of ${o.clients} clients received the first notice`)
  await sleep(3000)
  const rssIdle = rss(o.serverPid)

  const deliveries: number[] = []
  const reachedAll: number[] = []
  let missing = 0
  for (let i = 0; i < o.notices; i++) {
    const key = `notice ${i}`
    t0 = Date.now()
    await post(key)
    const got = await reachAll(key, 10_000)
    missing += o.clients - got
    const times = (arrivals.get(key) ?? []).map((t) => t - t0)
    deliveries.push(...times)
    reachedAll.push(Math.max(...times))
    await sleep(250)
  }
  clearInterval(pinger)
  for (const ws of sockets) ws.terminate()
  deliveries.sort((a, b) => a - b)
  reachedAll.sort((a, b) => a - b)
  say(`User hub: ${o.clients} clients connected in ${connectMs} ms`)
  say(
    `  server memory per idle connection: ${((rssIdle - rssBefore) / o.clients / 1024).toFixed(1)} KiB (resident ${(rssBefore / 2 ** 20).toFixed(0)} → ${(rssIdle / 2 ** 20).toFixed(0)} MiB)`,
  )
  say(
    `  notice → client, over ${deliveries.length} deliveries of ${o.notices} notices: p50 ${pct(deliveries, 50)} ms, p99 ${pct(deliveries, 99)} ms, max ${deliveries.at(-1)} ms; ${missing} missed`,
  )
  say(
    `  notice → all ${o.clients} clients: median ${median(reachedAll)} ms, worst ${reachedAll.at(-1)} ms (target p99 < 1000 ms)`,
  )

  // 2. A monitor watching judged submissions under the flag load: the load alone first, so the
  // figures with a monitor have a baseline taken on the machine as it is at that moment.
  const submitHeaders = (token: string) => ({
    cookie: sessionCookie(token),
    'x-xsrf-token': 'bench',
    'content-type': 'application/json',
  })
  let cursor = 0
  const teams = world.teams.slice(0, -1)
  const flagLoad = () =>
    load({
      port,
      concurrency: o.concurrency,
      seconds: o.seconds,
      next: () => {
        for (let tries = 0; tries < teams.length; tries++) {
          const team = teams[cursor++ % teams.length]!
          const cid = team.unsolved.shift()
          if (cid === undefined) continue
          return {
            method: 'POST',
            path: `/api/game/${world.gameId}/challenges/${cid}`,
            headers: submitHeaders(team.token),
            body: JSON.stringify({ flag: `flag{bench_${cid}}` }),
          }
        }
        return null
      },
    })
  const alone = await flagLoad()
  const sent = new Map<string, number>()
  const seen: number[] = []
  const monitor = await connect(
    `ws://127.0.0.1:${port}/hub/monitor?game=${world.gameId}`,
    { cookie: adminHeaders.cookie },
    (target, args) => {
      if (target !== 'ReceivedSubmissions') return
      const at = sent.get((args[0] as { answer: string }).answer)
      if (at !== undefined) seen.push(Date.now() - at)
    },
  )
  const prober = world.teams.at(-1)!
  const probeChallenge = prober.unsolved.pop()!
  let probes = 0
  const probe = async () => {
    const answer = `probe-${probes++}`
    sent.set(answer, Date.now())
    await fetch(`${base}/api/game/${world.gameId}/challenges/${probeChallenge}`, {
      method: 'POST',
      headers: submitHeaders(prober.token),
      body: JSON.stringify({ flag: answer }),
    })
  }
  // The monitor is admitted once a probe comes back.
  await probe()
  for (let i = 0; i < 100 && !seen.length; i++) await sleep(50)
  if (!seen.length) throw new Error('the monitor hub never pushed a submission')
  seen.length = 0
  sent.clear()

  await sleep(2000)
  const probing = setInterval(() => void probe(), 100)
  const submits = await flagLoad()
  clearInterval(probing)
  const deadline = Date.now() + 10_000
  while (seen.length < sent.size && Date.now() < deadline) await sleep(50)
  monitor.terminate()
  seen.sort((a, b) => a - b)
  say(`Correct flags without a monitor: ${alone.perSecond.toFixed(0)}/s, p99 ${alone.p99.toFixed(0)} ms`)
  say(
    `Monitor hub under ${submits.perSecond.toFixed(0)} correct flags/s (p99 ${submits.p99.toFixed(0)} ms): ${seen.length} of ${sent.size} probes pushed; POST → push p50 ${pct(seen, 50)} ms, p99 ${pct(seen, 99)} ms, max ${seen.at(-1)} ms (target p99 < 200 ms)`,
  )
}
