/**
 * The flag path as players feel it (issue 13): every virtual player submits a flag and polls its
 * status until the verdict comes, as the web client does (every 500 ms, or without pause as a
 * stress). One phase per kind of flag (correct, wrong, mixed), each on fresh (team, challenge)
 * pairs, and one table of what a player waits and what a verdict costs.
 */
import { readdirSync, readFileSync } from 'node:fs'
import http from 'node:http'
import { sessionCookie } from './seed.ts'

export type FlagKind = 'correct' | 'wrong' | 'mixed'

export interface VerdictWorld {
  gameId: number
  teams: { teamId: number; token: string; unsolved: number[] }[]
}

export interface VerdictPhase {
  kind: FlagKind
  verdicts: number
  seconds: number
  perSecond: number
  /** Submit sent → the poll that showed the verdict answered, as the player sees it. */
  p50: number
  p99: number
  /** Polls per verdict, and the share of verdicts the first poll already showed. */
  polls: number
  firstPoll: number
  /** The slowest single request (submit or poll). */
  slowest: number
  /** Server and database CPU per verdict, in milliseconds. */
  serverCpu: number
  dbCpu: number
  results: Record<string, number>
  failures: number
}

/** CPU seconds (user + system) used so far by a process; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/**
 * CPU of the PostgreSQL backends serving one database, found by their process titles
 * (`postgres: … user db host(port) …`), so it works without asking the database. Backends that
 * start during a phase count from zero; the few that end during one are missed.
 */
export function backendCpu(dbName: string) {
  const pattern = ` ${dbName} `
  const read = () => {
    const found = new Map<number, number>()
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue
      try {
        const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8')
        if (cmd.startsWith('postgres:') && cmd.includes(pattern))
          found.set(Number(entry), cpuSeconds(Number(entry)))
      } catch {}
    }
    return found
  }
  const before = read()
  return () => {
    let used = 0
    for (const [pid, cpu] of read()) used += cpu - (before.get(pid) ?? 0)
    return used
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/**
 * One phase: `clients` players each take the next fresh pair, submit and poll every `pause` ms
 * until the verdict, again and again for `seconds`. With `rate`, submissions are instead sent on
 * a fixed schedule of that many a second, each polled by its own player (a burst: players do not
 * wait for each other), and latency counts from when a submission was due.
 */
export async function verdictPhase(opts: {
  port: number
  world: VerdictWorld
  kind: FlagKind
  seconds: number
  clients: number
  pause: number
  rate?: number
  serverPid: number
  /** Reads the database's CPU used since the phase began (PostgreSQL only). */
  dbCpu?: () => () => number
}): Promise<VerdictPhase> {
  const { world, kind } = opts
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.rate ? 512 : opts.clients })
  const latencies: number[] = []
  const results: Record<string, number> = {}
  let polls = 0
  let firstPoll = 0
  let failures = 0
  let slowest = 0
  let cursor = 0
  let sent = 0

  function request(method: string, path: string, token: string, body?: string) {
    return new Promise<{ status: number; text: string }>((resolve) => {
      const t0 = performance.now()
      const r = http.request(
        {
          agent,
          host: '127.0.0.1',
          port: opts.port,
          method,
          path,
          headers: {
            cookie: sessionCookie(token),
            'x-xsrf-token': 'bench',
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (c: string) => {
            text += c
          })
          res.on('end', () => {
            slowest = Math.max(slowest, performance.now() - t0)
            resolve({ status: res.statusCode ?? 0, text })
          })
        },
      )
      r.on('error', () => resolve({ status: 0, text: '' }))
      r.end(body)
    })
  }

  /** The next fresh pair, round robin over the teams; null when every team ran out. */
  function take() {
    for (let tries = 0; tries < world.teams.length; tries++) {
      const team = world.teams[cursor++ % world.teams.length]!
      const cid = team.unsolved.shift()
      if (cid !== undefined) return { team, cid }
    }
    return null
  }

  /** Submits one flag and polls until its verdict; false when no pair was left. */
  async function play(due?: number): Promise<boolean> {
    const pair = take()
    if (!pair) return false
    const { team, cid } = pair
    const right = kind === 'correct' || (kind === 'mixed' && sent % 2 === 0)
    sent++
    const t0 = due ?? performance.now()
    const base = `/api/game/${world.gameId}/challenges/${cid}`
    const submitted = await request(
      'POST',
      base,
      team.token,
      JSON.stringify({ flag: right ? `flag{bench_${cid}}` : `flag{nope_${cid}_${sent}}` }),
    )
    if (submitted.status !== 200) {
      failures++
      return true
    }
    let n = 0
    for (;;) {
      if (opts.pause) await sleep(opts.pause)
      const res = await request('GET', `${base}/status/${submitted.text}`, team.token)
      n++
      if (res.status !== 200) {
        failures++
        return true
      }
      const status = JSON.parse(res.text) as string
      if (status !== 'FlagSubmitted') {
        latencies.push(performance.now() - t0)
        results[status] = (results[status] ?? 0) + 1
        polls += n
        if (n === 1) firstPoll++
        // A wrong flag leaves the pair unsolved: it may be tried again later.
        if (!right) team.unsolved.push(cid)
        return true
      }
      if (performance.now() - t0 > 60_000) {
        failures++
        return true
      }
    }
  }

  const cpu0 = cpuSeconds(opts.serverPid)
  const db = opts.dbCpu?.()
  const started = performance.now()
  const deadline = started + opts.seconds * 1000
  if (opts.rate) {
    const chains: Promise<boolean>[] = []
    const gap = 1000 / opts.rate
    for (let i = 0; ; i++) {
      const due = started + i * gap
      if (due >= deadline) break
      const wait = due - performance.now()
      if (wait > 1) await sleep(wait)
      chains.push(play(due))
    }
    await Promise.all(chains)
  } else {
    await Promise.all(
      Array.from({ length: opts.clients }, async () => {
        while (performance.now() < deadline && (await play())) {}
      }),
    )
  }
  const seconds = (performance.now() - started) / 1000
  const serverCpu = cpuSeconds(opts.serverPid) - cpu0
  const dbCpu = db?.() ?? 0
  agent.destroy()
  latencies.sort((a, b) => a - b)
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
  const verdicts = latencies.length
  return {
    kind,
    verdicts,
    seconds,
    perSecond: verdicts / seconds,
    p50: at(0.5),
    p99: at(0.99),
    polls: polls / Math.max(1, verdicts),
    firstPoll: firstPoll / Math.max(1, verdicts),
    slowest,
    serverCpu: (serverCpu * 1000) / Math.max(1, verdicts),
    dbCpu: (dbCpu * 1000) / Math.max(1, verdicts),
    results,
    failures,
  }
}

/** The phases as a Markdown table (the README's format). */
export function verdictTable(phases: VerdictPhase[], pglite: boolean): string[] {
  const ms = (x: number) => (x >= 1000 ? `${(x / 1000).toFixed(2)} s` : `${x.toFixed(x < 10 ? 1 : 0)} ms`)
  const lines = [
    '| flags | verdicts/s | submit → verdict p50 / p99 | polls per verdict (at 1st poll) | slowest request | CPU per verdict: server + database |',
    '|---|---|---|---|---|---|',
  ]
  for (const p of phases) {
    const cpu = pglite
      ? `${p.serverCpu.toFixed(2)} ms (PGlite in the server)`
      : `${p.serverCpu.toFixed(2)} + ${p.dbCpu.toFixed(2)} = **${(p.serverCpu + p.dbCpu).toFixed(2)} ms**`
    lines.push(
      `| ${p.kind} | ${p.perSecond.toFixed(0)} | ${ms(p.p50)} / ${ms(p.p99)} | ${p.polls.toFixed(2)} (${(p.firstPoll * 100).toFixed(0)}%) | ${ms(p.slowest)} | ${cpu} |`,
    )
  }
  const odd = phases.filter((p) => p.failures)
  for (const p of odd) lines.push(`(${p.kind}: ${p.failures} submissions or polls failed)`)
  lines.push(`verdicts: ${phases.map((p) => `${p.kind} ${JSON.stringify(p.results)}`).join('; ')}`)
  return lines
}

/**
 * The phases as JSON keyed by flag kind (`--json`): what issue 29 compares. CPU is the server's
 * and PostgreSQL's backends' together (on PGlite the database runs inside the server).
 */
export function verdictJson(phases: VerdictPhase[]) {
  const round = (x: number, digits: number) => Number(x.toFixed(digits))
  return Object.fromEntries(
    phases.map((p) => [
      p.kind,
      {
        verdictsPerSecond: round(p.perSecond, 1),
        p50Ms: round(p.p50, 1),
        p99Ms: round(p.p99, 1),
        cpuMsPerVerdict: round(p.serverCpu + p.dbCpu, 3),
        serverCpuMsPerVerdict: round(p.serverCpu, 3),
        dbCpuMsPerVerdict: round(p.dbCpu, 3),
        verdicts: p.verdicts,
        failures: p.failures,
      },
    ]),
  )
}
