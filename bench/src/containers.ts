/**
 * `npm run bench -- --containers`: challenge-container starts through the API against a raw
 * `docker run -d` of the same image in the same run, then 50 teams starting at once while players
 * poll the scoreboard and submit flags. Every container started is removed at the end, also when
 * the run fails or is interrupted. (One file over 400 lines: its phases share one run's state
 * and its clean-up.)
 */
import { execFile, execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import net from 'node:net'
import { cpus, getPriority, setPriority } from 'node:os'
import { promisify } from 'node:util'
import type pg from 'pg'
import { buildChallengeImage } from '../../server/test/helpers/challenge-image.ts'
import { correctFlagSubmits, type LoadResult, load } from './load.ts'
import type { Seeded } from './seed.ts'
import { sessionCookie } from './seed.ts'
import { median } from './stats.ts'

const run = promisify(execFile)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The challenge's limits, as the server passes them to the engine (64 MiB, a tenth of a CPU). */
const MEMORY_MB = 64
const CPU_TENTHS = 1
const PIDS_LIMIT = 1024
/** The server's cool-down between two operations on one team's container. */
const COOL_DOWN_MS = 10_000

export interface ContainerOptions {
  /** Sequential starts each way (API and raw, interleaved). */
  sequential: number
  /** Teams starting at once. */
  burst: number
  /** Seconds of the baseline load phase. */
  seconds: number
  /** Offered load: scoreboard polls and correct-flag submits per second. */
  readRate: number
  submitRate: number
}

/** Docker names of this run: the server's challenge network and the raw containers' label. */
export function dockerNames(runId: string) {
  return { network: `pennant-bench-${runId}`, rawLabel: `pennant.bench=${runId}` }
}

/**
 * Builds the test challenge image and adds a dynamic-container challenge every team can start,
 * on the image's flag port (8080) or another of its ports (the echo service).
 */
export async function addContainerChallenge(client: pg.Client, gameId: number, port = 8080): Promise<number> {
  const image = await buildChallengeImage()
  const c = await client.query(
    `insert into challenges (game_id, title, category, is_enabled, original_score, type, container_image,
                             container_expose_port, memory_limit, cpu_count)
     values ($1, 'Container challenge', 0, true, 500, 3, $2, $5, $3, $4) returning id`,
    [gameId, image, MEMORY_MB, CPU_TENTHS, port],
  )
  const id = c.rows[0].id as number
  await client.query(
    `insert into game_instances (challenge_id, participation_id) select $1, id from participations where game_id = $2`,
    [id, gameId],
  )
  return id
}

/**
 * Removes every container of this run (the server's, found by its network and platform label, and
 * the raw ones by their label) and the networks. Synchronous, so it also runs on Ctrl-C.
 */
export function removeEverything(runId: string, platformId: string | null): number {
  const { network, rawLabel } = dockerNames(runId)
  const filters = [`label=${rawLabel}`, `network=${network}`, `network=${network}-noegress`]
  if (platformId) filters.push(`label=pennant.platform=${platformId}`)
  const ids = new Set<string>()
  for (const f of filters) {
    try {
      const out = execFileSync('docker', ['ps', '-aq', '--no-trunc', '--filter', f], { encoding: 'utf8' })
      for (const id of out.split('\n').filter(Boolean)) ids.add(id)
    } catch {}
  }
  if (ids.size) {
    try {
      execFileSync('docker', ['rm', '-f', '-v', ...ids], { stdio: 'ignore' })
    } catch {}
  }
  for (const n of [network, `${network}-noegress`]) {
    try {
      execFileSync('docker', ['network', 'rm', n], { stdio: 'ignore' })
    } catch {}
  }
  return ids.size
}

/**
 * `--engine-nice N`: puts the local engine (dockerd and containerd, so also the shims, runc and
 * the hooks they run) at nice N, in both places Linux reads it: every thread, and the session's
 * autogroup (with autogroups on, threads of other sessions are weighed by the group's nice).
 * What `deploy/engine-priority.conf` does for a systemd host. Returns how to put it back.
 */
export function lowerEngine(nice: number): () => void {
  const undo: (() => void)[] = []
  for (const name of ['dockerd', 'containerd']) {
    let pids: number[] = []
    try {
      pids = execFileSync('pidof', [name], { encoding: 'utf8' }).trim().split(' ').map(Number)
    } catch {
      throw new Error(`--engine-nice: no local ${name} to lower`)
    }
    for (const pid of pids) {
      const group = `/proc/${pid}/autogroup`
      try {
        const was = readFileSync(group, 'utf8').match(/nice (-?\d+)/)?.[1]
        writeFileSync(group, String(nice))
        if (was !== undefined) undo.push(() => writeFileSync(group, was))
      } catch {}
      for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
        try {
          const was = getPriority(tid)
          setPriority(tid, nice)
          undo.push(() => setPriority(tid, was))
        } catch {}
      }
    }
  }
  return () => {
    for (const step of undo.reverse()) {
      try {
        step()
      } catch {}
    }
  }
}

/** Creates the challenge network as the server would (no traffic between containers), for both. */
export async function createNetwork(runId: string) {
  const { network } = dockerNames(runId)
  await run('docker', [
    'network',
    'create',
    '--driver',
    'bridge',
    '-o',
    'com.docker.network.bridge.enable_icc=false',
    '-o',
    'com.docker.network.bridge.enable_ip_masquerade=true',
    network,
  ])
}

/** Connects to `port` until what it sends contains `expect`; the milliseconds it took. */
async function untilAnswers(port: number, expect: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const text = await new Promise<string>((resolve) => {
      let got = ''
      const socket = net.connect({ host: '127.0.0.1', port })
      socket.setTimeout(2000, () => socket.destroy())
      socket.on('data', (d) => {
        got += d.toString()
      })
      socket.on('close', () => resolve(got))
      socket.on('error', () => {})
    })
    if (text.includes(expect)) return text
    if (Date.now() > deadline) throw new Error(`127.0.0.1:${port} never answered with ${expect}`)
    await sleep(5)
  }
}

/** CPU seconds (user + system) used so far by a process; 0 when it cannot be read. */
function cpuSeconds(pid: number | null): number {
  if (!pid) return 0
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return 0
  }
}

/** CPU seconds the whole machine has been busy (every core, user + system), from /proc/stat. */
function machineBusySeconds(): number {
  const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/)
  const n = fields.map(Number)
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  return (n.slice(0, 8).reduce((a, b) => a + b, 0) - n[3]! - n[4]!) / 100
}

/** The Docker daemon's process, when this machine runs it (for its CPU). */
function daemonPid(): number | null {
  try {
    return Number(execFileSync('pidof', ['dockerd'], { encoding: 'utf8' }).trim().split(' ')[0]) || null
  } catch {
    return null
  }
}

/** The local engine's CPUs, as the server reads them. */
function engineCpus(): string {
  try {
    return execFileSync('docker', ['info', '--format', '{{.NCPU}}'], { encoding: 'utf8' }).trim()
  } catch {
    return '?'
  }
}

const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
const ms = (x: number) => `${x.toFixed(0)} ms`
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return `p50 ${ms(quantile(s, 0.5))}, p99 ${ms(quantile(s, 0.99))}, min ${ms(s[0] ?? 0)}, max ${ms(s.at(-1) ?? 0)}`
}
const shortFmt = (r: LoadResult) =>
  `${r.perSecond.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms (${r.requests} requests, statuses ${JSON.stringify(r.statuses)}${r.errors ? `, ${r.errors} errors` : ''})`

export async function containerBench(ctx: {
  port: number
  serverPid: number
  client: pg.Client
  world: Seeded
  challengeId: number
  runId: string
  /** CONTAINER_START_CONCURRENCY given to the server; null: its default. */
  startConcurrency: number | null
  opts: ContainerOptions
  say: (line: string) => void
  /** Told the server's platform id once known, so the clean-up finds its containers. */
  onPlatform: (id: string) => void
}): Promise<void> {
  const { port, client, world, challengeId, say, opts } = ctx
  const base = `http://127.0.0.1:${port}`
  const containerPath = `/api/game/${world.gameId}/container/${challengeId}`
  const { network, rawLabel } = dockerNames(ctx.runId)
  const headers = (token: string): Record<string, string> => ({
    cookie: sessionCookie(token),
    'x-xsrf-token': 'bench',
  })
  const teamAt = (i: number) => {
    const team = world.teams[i]
    if (!team) throw new Error(`--containers needs at least ${opts.sequential + opts.burst} teams`)
    return team
  }
  // Teams whose container this process started, with when: destroyed through the API at the end.
  const started = new Map<number, number>()

  async function apiStart(teamIndex: number) {
    const team = teamAt(teamIndex)
    const t0 = performance.now()
    const res = await fetch(base + containerPath, { method: 'POST', headers: headers(team.token) })
    const body = (await res.json()) as { entry?: string; status?: number; title?: string }
    const took = performance.now() - t0
    if (res.status !== 200 || !body.entry)
      throw new Error(`start for team ${team.teamId}: ${res.status} ${JSON.stringify(body)}`)
    started.set(teamIndex, Date.now())
    return { took, team, entryPort: Number(body.entry.split(':').at(-1)) }
  }

  async function flagOf(participationId: number): Promise<string> {
    const r = await client.query(
      `select f.flag from game_instances gi join flags f on f.id = gi.flag_id
       where gi.challenge_id = $1 and gi.participation_id = $2`,
      [challengeId, participationId],
    )
    return r.rows[0]?.flag as string
  }

  async function platformId() {
    const r = await client.query(`select value from configs where key = 'platform'`)
    const id = (r.rows[0]?.value as { id?: string } | undefined)?.id
    if (id) ctx.onPlatform(id)
  }

  /** Destroys through the API every container started here, each once its cool-down is over. */
  async function destroyAll() {
    const t0 = performance.now()
    const failed: string[] = []
    const queue = [...started.entries()]
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const [i, at] = item
          const wait = at + COOL_DOWN_MS + 200 - Date.now()
          if (wait > 0) await sleep(wait)
          const res = await fetch(base + containerPath, {
            method: 'DELETE',
            headers: headers(teamAt(i).token),
          })
          await res.arrayBuffer()
          if (res.status === 200) started.delete(i)
          else failed.push(`team ${teamAt(i).teamId}: ${res.status}`)
        }
      }),
    )
    if (failed.length) throw new Error(`destroy failed: ${failed.join(', ')}`)
    return performance.now() - t0
  }

  const rawArgs = (i: number) => [
    'run',
    '-d',
    '--name',
    `pennant-bench-${ctx.runId}-raw-${i}`,
    '--label',
    rawLabel,
    '-p',
    '0:8080',
    '--memory',
    `${MEMORY_MB}m`,
    '--memory-swap',
    `${MEMORY_MB}m`,
    '--cpus',
    String(CPU_TENTHS / 10),
    '--pids-limit',
    String(PIDS_LIMIT),
    '--security-opt',
    'no-new-privileges:true',
    ...['NET_RAW', 'MKNOD', 'AUDIT_WRITE', 'SETFCAP', 'SETPCAP'].flatMap((c) => ['--cap-drop', c]),
    '--network',
    network,
    '--restart',
    'no',
    '--log-opt',
    'max-size=1m',
    '--log-opt',
    'max-file=1',
    '-e',
    `GZCTF_FLAG=flag{raw_${i}}`,
    '-e',
    `GZCTF_TEAM_ID=raw${i}`,
    'pennant-test-challenge:2',
  ]

  // 1. Sequential starts, API and raw interleaved so drift hits both alike. One warm-up each first
  // (the server reads the engine and the image once; the CLI's first run pages its binary in).
  const api = { start: [] as number[], answer: [] as number[] }
  const raw = { start: [] as number[], answer: [] as number[] }
  const rawIds: string[] = []
  let rawIndex = 0
  const rawStart = async () => {
    const i = rawIndex++
    const t0 = performance.now()
    const { stdout } = await run('docker', rawArgs(i))
    const took = performance.now() - t0
    rawIds.push(stdout.trim())
    const portOut = (await run('docker', ['port', stdout.trim(), '8080/tcp'])).stdout
    const hostPort = Number(portOut.split('\n')[0]!.split(':').at(-1))
    const t1 = performance.now()
    await untilAnswers(hostPort, `flag{raw_${i}}`)
    // The port lookup is the CLI's cost, not the engine's: left out of time-to-answer.
    return { took, answered: took + (performance.now() - t1) }
  }
  const apiRun = async (teamIndex: number) => {
    const t0 = performance.now()
    const s = await apiStart(teamIndex)
    await untilAnswers(s.entryPort, `team=${s.team.teamId}`).then(async (text) => {
      const flag = await flagOf(s.team.participationId)
      if (!flag || !text.includes(`flag=${flag}`))
        throw new Error(`team ${s.team.teamId} got "${text.trim()}"`)
    })
    return { took: s.took, answered: performance.now() - t0 }
  }

  // Other work on the machine skews every figure here: say how busy it was.
  say(`Load average before: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`)
  const concurrency =
    ctx.startConcurrency === null
      ? `CONTAINER_START_CONCURRENCY unset: the server's default, half the engine's ${engineCpus()} CPUs`
      : `CONTAINER_START_CONCURRENCY=${ctx.startConcurrency}`
  say(`Container starts, ${opts.sequential} sequential each way (${concurrency})`)
  const warmApi = await apiRun(0)
  await platformId()
  const warmRaw = await rawStart()
  say(
    `  warm-up: API ${ms(warmApi.took)} (answering ${ms(warmApi.answered)}), raw ${ms(warmRaw.took)} (answering ${ms(warmRaw.answered)})`,
  )
  const busy0 = machineBusySeconds()
  const seq0 = performance.now()
  for (let i = 1; i <= opts.sequential; i++) {
    const a = await apiRun(i)
    api.start.push(a.took)
    api.answer.push(a.answered)
    const r = await rawStart()
    raw.start.push(r.took)
    raw.answer.push(r.answered)
  }
  const busyPerStart = (machineBusySeconds() - busy0) / (2 * opts.sequential)
  const seqSeconds = (performance.now() - seq0) / 1000
  const ratio = median(api.start) / median(raw.start)
  say(`  API start → 200 with entry:  ${stats(api.start)}`)
  say(`  raw docker run -d:           ${stats(raw.start)}`)
  say(`  → API/raw median ${ratio.toFixed(2)}× (target ≤ 1.5×) ${ratio <= 1.5 ? 'met' : 'NOT met'}`)
  say(`  API start → entry answers:   ${stats(api.answer)}`)
  say(`  raw run → entry answers:     ${stats(raw.answer)}`)
  say(`  → API/raw median ${(median(api.answer) / median(raw.answer)).toFixed(2)}× to answering`)
  say(
    `  machine CPU: ${busyPerStart.toFixed(2)} CPU-s per start (${(((busyPerStart * 2 * opts.sequential) / seqSeconds) * 100).toFixed(0)}% of one core while starting one at a time; ${cpus().length} cores)`,
  )
  await run('docker', ['rm', '-f', '-v', ...rawIds])
  const destroyed = started.size
  const destroyMs = await destroyAll()
  say(`  cleaned up: ${rawIds.length} raw removed, ${destroyed} destroyed through the API (${ms(destroyMs)})`)

  // 2. Mixed player load, first alone, then while `burst` teams start a container at once.
  let etag = ''
  // Teams past the ones that start containers, round robin: one team's submits stay rare.
  const nextSubmit = correctFlagSubmits(
    world.gameId,
    world.teams.slice(opts.sequential + 1 + opts.burst),
    headers,
  )
  const boardPath = `/api/game/${world.gameId}/scoreboard`
  const reads = (seconds: number, stop?: () => boolean) =>
    load({
      port,
      concurrency: 16,
      seconds,
      rate: opts.readRate,
      stop,
      next: () => ({ method: 'GET', path: boardPath, headers: etag ? { 'if-none-match': etag } : undefined }),
      onResponse: (status, _body, _req, h) => {
        if (status === 200 && typeof h.etag === 'string') etag = h.etag
      },
    })
  const submits = (seconds: number, stop?: () => boolean) =>
    load({
      port,
      concurrency: 16,
      seconds,
      rate: opts.submitRate,
      stop,
      next: nextSubmit,
    })
  const dockerd = daemonPid()
  const phase = async <T>(work: () => Promise<T>) => {
    const s0 = cpuSeconds(ctx.serverPid)
    const d0 = cpuSeconds(dockerd)
    const m0 = machineBusySeconds()
    const own0 = process.cpuUsage()
    const t0 = performance.now()
    const result = await work()
    const seconds = (performance.now() - t0) / 1000
    const own = process.cpuUsage(own0)
    const ownShare = ((own.user + own.system) / 1e6 / seconds) * 100
    const cpu = `server CPU ${(((cpuSeconds(ctx.serverPid) - s0) / seconds) * 100).toFixed(0)}%, load generator ${ownShare.toFixed(0)}%${dockerd ? `, dockerd ${(((cpuSeconds(dockerd) - d0) / seconds) * 100).toFixed(0)}%` : ''} of one core, machine ${(((machineBusySeconds() - m0) / seconds / cpus().length) * 100).toFixed(0)}% busy (${cpus().length} cores) over ${seconds.toFixed(1)} s`
    return { result, cpu }
  }

  say('')
  say(
    `Player load: ${opts.readRate} scoreboard polls/s (If-None-Match) + ${opts.submitRate} correct flags/s, paced`,
  )
  // A short warm-up so the baseline does not pay for the first board builds.
  await Promise.all([reads(2), submits(2)])
  const baseline = await phase(() => Promise.all([reads(opts.seconds), submits(opts.seconds)]))
  const [baseReads, baseSubmits] = baseline.result

  const burstTeams = Array.from({ length: opts.burst }, (_, k) => opts.sequential + 1 + k)
  let pending = burstTeams.length
  const during = await phase(async () => {
    const t0 = performance.now()
    const starts = burstTeams.map((i) =>
      apiStart(i).then(
        (s) => ({ ok: true as const, ...s, done: performance.now() - t0 }),
        (err: unknown) => ({ ok: false as const, err, done: performance.now() - t0 }),
      ),
    )
    for (const s of starts) void s.finally(() => pending--)
    const [r, s, settled] = await Promise.all([
      reads(600, () => pending === 0),
      submits(600, () => pending === 0),
      Promise.all(starts),
    ])
    return { reads: r, submits: s, settled, allDone: performance.now() - t0 }
  })
  const { settled, allDone } = during.result
  const ok = settled.filter((x) => x.ok)
  const failures = settled.filter((x) => !x.ok)
  // Every container of the burst answers with its team's flag (checked after, not timed).
  let answering = 0
  for (const s of ok) {
    const text = await untilAnswers(s.entryPort, `team=${s.team.teamId}`).catch(() => '')
    if (text.includes(`flag=${await flagOf(s.team.participationId)}`)) answering++
  }

  const p99Ratio = (a: LoadResult, b: LoadResult) => a.p99 / Math.max(0.001, b.p99)
  const readRatio = p99Ratio(during.result.reads, baseReads)
  const submitRatio = p99Ratio(during.result.submits, baseSubmits)
  say(`  baseline (${opts.seconds} s), ${baseline.cpu}`)
  say(`    scoreboard polls:  ${shortFmt(baseReads)}`)
  say(`    flag submits:      ${shortFmt(baseSubmits)}`)
  say(`  while ${opts.burst} teams start a container at once, ${during.cpu}`)
  say(`    scoreboard polls:  ${shortFmt(during.result.reads)}`)
  say(`    flag submits:      ${shortFmt(during.result.submits)}`)
  say(
    `  → p99 during/baseline: polls ${readRatio.toFixed(2)}×, submits ${submitRatio.toFixed(2)}× (target ≤ 2×) ${readRatio <= 2 && submitRatio <= 2 ? 'met' : 'NOT met'}`,
  )
  say(
    `  ${opts.burst} starts: all done after ${ms(allDone)} (${(ok.length / (allDone / 1000)).toFixed(2)} starts/s); latency ${stats(ok.map((x) => x.took))}; ${ok.length} ok, ${failures.length} failed, ${answering}/${ok.length} answer with their flag`,
  )
  for (const f of failures.slice(0, 3)) if (!f.ok) say(`    failure: ${String(f.err)}`)
  const burstDestroyed = started.size
  const burstDestroyMs = await destroyAll()
  say(`  cleaned up: ${burstDestroyed} destroyed through the API (${ms(burstDestroyMs)}, cool-down included)`)
}
