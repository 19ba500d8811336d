/**
 * `npm run bench`: seeds a game on PostgreSQL, starts the real server in its own process and
 * drives HTTP load at it from this one, then prints the figures issue 5 asks for.
 *   --teams 1000 --challenges 50 --solves 20000 --seconds 10 --concurrency 64
 * (challenges default to the solves per team + 30, at least 50).
 * `--containers` measures challenge-container starts on the local Docker engine instead (see
 * containers.ts): --start-concurrency N (default: the server's) --sequential 20 --burst 50 --read-rate 200 --submit-rate 40;
 * --engine-nice 10 runs the local engine at that nice level meanwhile (and restores it).
 * `--proxy` measures the platform proxy instead (see proxy.ts): --megabytes 64 --rounds 3
 * --connections 200 --proxy-containers 8 --submit-rate 100; --clients-in-bench runs the 200 players on the bench's own event loop
 * (proxy-clients.ts).
 * `--verdicts` measures the flag path as players feel it instead (see verdicts.ts): submit, then
 * poll the status every 500 ms (`--no-pause`: at once) until the verdict; `--rate 1000` sends
 * submissions on a schedule instead of from 64 waiting players; `--flags correct,wrong,mixed`;
 * `--pglite` runs the server on its embedded database. Defaults there: 30 challenges and 10
 * solves per team. `--json out.json` also writes, per flag kind, `{ verdictsPerSecond, p50Ms,
 * p99Ms, cpuMsPerVerdict }` (server + database CPU) keyed `correct`, `wrong` (and `mixed`).
 * `--hubs` measures the live hubs instead (see hubs.ts): --clients 2000 --notices 20.
 * `--servers 2` runs the default bench against two servers on one PostgreSQL and one Redis
 * (REDIS_URL, default the machine's) behind Debian's nginx, as the README's scale-out section
 * deploys them; `--nginx` puts nginx in front of a single server, for a like-for-like figure.
 * `--scale 1,2,3` measures what each added server costs instead (see scale.ts): total CPU per
 * correct verdict and per board read over servers, Redis and PostgreSQL, the counts alternated
 * over `--rounds 2`, each server pinned to a core; `--seconds 5` per measurement; `--builds
 * dist,.builds/before` alternates builds of the server (folders under server/).
 * The database server comes from BENCH_DATABASE_URL (default: the machine's PostgreSQL).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { openDatabase } from '../../server/src/db/index.ts'
import { ECHO_PORT } from '../../server/test/helpers/challenge-image.ts'
import { startNginx } from '../../server/test/scaleout/cluster.ts'
import {
  addContainerChallenge,
  containerBench,
  createNetwork,
  lowerEngine,
  removeEverything,
} from './containers.ts'
import { hubBench } from './hubs.ts'
import { fmt, type LoadResult, load } from './load.ts'
import { proxyBench } from './proxy.ts'
import { scaleBench } from './scale.ts'
import { type Queryable, seed, sessionCookie } from './seed.ts'
import { waitFor } from './server-process.ts'
import { median } from './stats.ts'
import {
  backendCpu,
  cpuSeconds,
  type FlagKind,
  type VerdictPhase,
  verdictJson,
  verdictPhase,
  verdictTable,
} from './verdicts.ts'

const args = process.argv.slice(2)
const arg = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? Number(args[i + 1]) : fallback
}
const verdictMode = args.includes('--verdicts')
const scaleMode = args.includes('--scale')
const pglite = args.includes('--pglite')
/** `--json FILE`: the verdict figures also as JSON (issue 29's shape). */
const jsonFile = args.includes('--json') ? args[args.indexOf('--json') + 1] : undefined
const teams = arg('teams', 1000)
const solves = arg('solves', verdictMode ? teams * 10 : 20000)
const opts = {
  teams,
  // Enough challenges for every team's share of the seeded solves plus 30 left to solve
  // (50 at the defaults): `--solves 200000` works without other options. The verdict bench
  // plays the issue's game: 30 challenges, 10 solved per team.
  // The scale bench starts every phase from the seeded game, with 60 left to solve per team.
  challenges: arg(
    'challenges',
    verdictMode ? 30 : Math.max(50, Math.ceil(solves / teams) + (scaleMode ? 60 : 30)),
  ),
  solves,
  seconds: arg('seconds', scaleMode ? 5 : 10),
  concurrency: arg('concurrency', 64),
}
const proxyMode = args.includes('--proxy')
const containerMode = args.includes('--containers') || proxyMode
const hubMode = args.includes('--hubs')
// Unset: the server's own default (half the engine's CPUs).
const startConcurrency = args.includes('--start-concurrency') ? arg('start-concurrency', 1) : null
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PORT = 18400 + Math.floor(Math.random() * 500)
const BARE_PORT = PORT + 1
const serverCount = arg('servers', 1)
/** The load goes through nginx (several servers, or `--nginx`); the servers listen behind it. */
const viaNginx = serverCount > 1 || args.includes('--nginx')
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'

const say = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function main() {
  if (pglite && !verdictMode) throw new Error('--pglite goes with --verdicts')
  if (viaNginx && (pglite || verdictMode || containerMode || hubMode || scaleMode))
    throw new Error('--servers and --nginx go with the default bench')
  if (scaleMode && (pglite || verdictMode || containerMode || hubMode))
    throw new Error('--scale is a bench of its own')
  const dbName = `pennant_bench_${Date.now().toString(36)}`
  const admin = pglite ? null : new pg.Client({ connectionString: serverUrl })
  await admin?.connect()
  await admin?.query(`CREATE DATABASE ${dbName}`)
  const url = new URL(serverUrl)
  url.pathname = `/${dbName}`
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-bench-'))
  const children: ChildProcess[] = []
  let nginx: Awaited<ReturnType<typeof startNginx>> | null = null
  // --containers: what to remove at the end, also when interrupted.
  const runId = dbName.slice('pennant_bench_'.length)
  let platformId: string | null = null
  let containersTouched = false
  // --engine-nice: how to put the engine's priority back, also when interrupted.
  let restoreEngine = () => {}
  const cleanUpContainers = () => {
    restoreEngine()
    restoreEngine = () => {}
    if (!containersTouched) return
    containersTouched = false
    const n = removeEverything(runId, platformId)
    if (n) say(`Removed ${n} leftover container(s)`)
  }
  const interrupted = () => {
    for (const child of children) child.kill('SIGINT')
    cleanUpContainers()
    process.exit(130)
  }
  process.once('SIGINT', interrupted)
  process.once('SIGTERM', interrupted)
  try {
    let t0 = Date.now()
    // PGlite: seeded through its own handle in this process, then closed for the server to open.
    const embedded = pglite ? await openDatabase({ dataDir }) : null
    const migrated = embedded ?? (await openDatabase({ url: url.toString(), dataDir: null }))
    if (!embedded) await migrated.close()
    const client = new pg.Client({ connectionString: url.toString() })
    // The clean-up drops the database under it: a failure must show its own error, not that one.
    client.on('error', () => {})
    if (!embedded) await client.connect()
    const world = await seed(
      embedded ? (embedded.db as unknown as { $client: Queryable }).$client : client,
      opts,
    )
    await embedded?.close()
    say(
      `Seeded ${opts.teams} teams, ${opts.challenges} challenges, ${opts.solves} solves in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
    )
    if (scaleMode) {
      say('')
      await scaleBench({
        root,
        dbUrl: url.toString(),
        dbName,
        dataDir,
        client,
        world,
        counts: (/^[\d,]+$/.test(args[args.indexOf('--scale') + 1] ?? '')
          ? args[args.indexOf('--scale') + 1]!
          : '1,2,3'
        )
          .split(',')
          .map(Number),
        rounds: arg('rounds', 2),
        seconds: opts.seconds,
        concurrency: opts.concurrency,
        profileDir: args.includes('--profile') ? path.join(root, 'bench-profile') : null,
        builds: args.includes('--builds') ? args[args.indexOf('--builds') + 1]!.split(',') : ['dist'],
        say,
      })
      await client.end()
      return
    }
    let containerChallenge = 0
    if (containerMode) {
      containersTouched = true
      // The proxy bench talks to the image's echo service.
      containerChallenge = await addContainerChallenge(client, world.gameId, proxyMode ? ECHO_PORT : 8080)
      await createNetwork(runId)
    }

    // --profile writes a V8 CPU profile of the server to ./bench-profile/ when it exits.
    const profile = args.includes('--profile')
      ? ['--cpu-prof', `--cpu-prof-dir=${path.join(root, 'bench-profile')}`]
      : []
    // The server as it ships (what `npm start` runs), built when its sources are newer. From
    // the sources through tsx, each module a request first needs was compiled on the spot: the
    // first phase's opening burst took seconds that no deployed server spends.
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], {
      cwd: path.join(root, 'server'),
      stdio: 'inherit',
    })
    const startServer = async (port: number, extra: Record<string, string>) => {
      const server = spawn(process.execPath, [...profile, path.join(root, 'server/dist/main.js')], {
        cwd: root,
        env: {
          ...process.env,
          ...(pglite ? {} : { DATABASE_URL: url.toString() }),
          PORT: String(port),
          HOST: '127.0.0.1',
          DATA_DIR: dataDir,
          LOG_LEVEL: 'warn',
          PENNANT_ADMIN_PASSWORD: 'Bench4dmin',
          ...(containerMode
            ? {
                CONTAINER_BACKEND: 'docker',
                CONTAINER_NETWORK: `pennant-bench-${runId}`,
                ...(startConcurrency === null
                  ? {}
                  : { CONTAINER_START_CONCURRENCY: String(startConcurrency) }),
                DISABLE_RATE_LIMIT: 'true',
                ...(proxyMode ? { CONTAINER_PORT_MAPPING: 'PlatformProxy' } : {}),
              }
            : // No engine: its isolation probe (a container started after "ready") would share
              // the first phase's cores, as the scale bench already avoids.
              { CONTAINER_BACKEND: 'none' }),
          ...extra,
        },
        stdio: ['ignore', 'inherit', 'inherit'],
      })
      children.push(server)
      // A busy shared machine can take a minute to start the server from source.
      await waitFor(`http://127.0.0.1:${port}/healthz`, server, 120)
      return server
    }
    // Behind nginx the servers listen on the ports after the bare server's; one after another,
    // as a rolling deployment would start them.
    const servers: ChildProcess[] = []
    if (!viaNginx) servers.push(await startServer(PORT, {}))
    else {
      const ports = Array.from({ length: serverCount }, (_, i) => PORT + 2 + i)
      const shared: Record<string, string> =
        serverCount > 1 ? { REDIS_URL: redisUrl, REDIS_PREFIX: `pennant-bench-${runId}:` } : {}
      for (const port of ports) servers.push(await startServer(port, shared))
      nginx = await startNginx(ports, PORT)
      say(`${serverCount} server(s) behind nginx${serverCount > 1 ? `, sharing Redis at ${redisUrl}` : ''}`)
    }
    const server = servers[0]!
    /** CPU seconds of every server process. */
    const serversCpu = () => servers.reduce((sum, child) => sum + cpuSeconds(child.pid!), 0)
    const boardPath = `/api/game/${world.gameId}/scoreboard`
    t0 = Date.now()
    const first = await fetch(`http://127.0.0.1:${PORT}${boardPath}`)
    const boardBytes = Buffer.from(await first.arrayBuffer())
    say(`Scoreboard: ${(boardBytes.length / 1024).toFixed(0)} KiB, first build ${Date.now() - t0} ms`)

    if (proxyMode) {
      say('')
      await proxyBench({
        port: PORT,
        root,
        client,
        world,
        challengeId: containerChallenge,
        opts: {
          megabytes: arg('megabytes', 64),
          rounds: arg('rounds', 3),
          connections: arg('connections', 200),
          containers: arg('proxy-containers', 8),
          seconds: opts.seconds,
          submitRate: arg('submit-rate', 100),
          // Players are on other machines: by default their load does not run on the timing loop.
          clientsApart: !args.includes('--clients-in-bench'),
        },
        say,
      })
      await client.end()
      return
    }
    if (hubMode) {
      say('')
      await hubBench({
        port: PORT,
        serverPid: server.pid!,
        world,
        say,
        clients: arg('clients', 2000),
        notices: arg('notices', 20),
        seconds: opts.seconds,
        concurrency: opts.concurrency,
      })
      await client.end()
      return
    }
    if (verdictMode) {
      if (!embedded) await client.end()
      const flags = args.includes('--flags') ? args[args.indexOf('--flags') + 1] : undefined
      const kinds = (flags?.split(',') ?? ['correct', 'wrong', 'mixed']) as FlagKind[]
      const pause = args.includes('--no-pause') ? 0 : 500
      const rate = arg('rate', 0) || undefined
      const phases: VerdictPhase[] = []
      for (const kind of kinds) {
        phases.push(
          await verdictPhase({
            port: PORT,
            world,
            kind,
            seconds: opts.seconds,
            clients: opts.concurrency,
            pause,
            rate,
            serverPid: server.pid!,
            dbCpu: pglite ? undefined : () => backendCpu(dbName),
          }),
        )
        // Let the judge and the board settle between phases.
        await sleep(1000)
      }
      say('')
      say(
        `Verdicts on ${pglite ? 'PGlite' : 'PostgreSQL'}: ${opts.teams} teams, ${opts.challenges} challenges, ${opts.solves} solves, ` +
          (rate ? `${rate} submissions/s` : `${opts.concurrency} players`) +
          `, polling ${pause ? `every ${pause} ms` : 'without pause'}, ${opts.seconds} s per phase`,
      )
      for (const line of verdictTable(phases, pglite)) say(line)
      if (jsonFile) {
        writeFileSync(jsonFile, `${JSON.stringify(verdictJson(phases), null, 2)}\n`)
        say(`Wrote ${jsonFile}`)
      }
      return
    }

    if (containerMode) {
      say('')
      const engineNice = args.includes('--engine-nice') ? arg('engine-nice', 10) : null
      if (engineNice !== null) {
        restoreEngine = lowerEngine(engineNice)
        say(`Engine at lower priority: dockerd and containerd at nice ${engineNice} (restored at the end)`)
      }
      await containerBench({
        port: PORT,
        serverPid: server.pid!,
        client,
        world,
        challengeId: containerChallenge,
        runId,
        startConcurrency,
        opts: {
          sequential: arg('sequential', 20),
          burst: arg('burst', 50),
          seconds: opts.seconds,
          readRate: arg('read-rate', 200),
          submitRate: arg('submit-rate', 40),
        },
        say,
        onPlatform: (id) => {
          platformId = id
        },
      })
      await client.end()
      return
    }

    // 1. Scoreboard reads, against bare Fastify sending the same bytes with the same load: a
    // baseline, not a ceiling (the server can beat it; on a shared machine the two differ by
    // noise). They take turns, two rounds each, so a neighbour's burst does not land on one alone.
    const bytesFile = path.join(dataDir, 'board.json')
    writeFileSync(bytesFile, boardBytes)
    const bare = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'bench/src/bare.ts'), bytesFile, String(BARE_PORT)],
      {
        cwd: root,
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(bare)
    await waitFor(`http://127.0.0.1:${BARE_PORT}/board`, bare)
    const readRounds: LoadResult[] = []
    const bareRounds: LoadResult[] = []
    for (let round = 0; round < 2; round++) {
      readRounds.push(
        await load({
          port: PORT,
          concurrency: 32,
          seconds: opts.seconds / 2,
          next: () => ({ method: 'GET', path: boardPath }),
        }),
      )
      bareRounds.push(
        await load({
          port: BARE_PORT,
          concurrency: 32,
          seconds: opts.seconds / 2,
          next: () => ({ method: 'GET', path: '/board' }),
        }),
      )
    }
    bare.kill()
    const rate = (rounds: LoadResult[]) =>
      rounds.reduce((n, r) => n + r.requests, 0) / rounds.reduce((t, r) => t + r.seconds, 0)

    // 2. Time from an accepted flag to the scoreboard showing it.
    const headers = (token: string) => ({
      cookie: sessionCookie(token),
      'x-xsrf-token': 'bench',
      'content-type': 'application/json',
    })
    const visible: number[] = []
    for (let i = 0; i < 10; i++) {
      const team = world.teams[i]!
      const cid = team.unsolved.shift()!
      const before = Date.now()
      await fetch(`http://127.0.0.1:${PORT}/api/game/${world.gameId}/challenges/${cid}`, {
        method: 'POST',
        headers: headers(team.token),
        body: JSON.stringify({ flag: `flag{bench_${cid}}` }),
      })
      // Polled with the board's ETag: a big board is read and parsed only when it changed, so
      // the figure is the server's delay, not the time this process takes to parse megabytes.
      let etag = ''
      for (;;) {
        const res = await fetch(`http://127.0.0.1:${PORT}${boardPath}`, {
          headers: etag ? { 'if-none-match': etag } : {},
        })
        if (res.status === 200) {
          etag = res.headers.get('etag') ?? ''
          const board = (await res.json()) as {
            items: { id: number; solvedChallenges: { id: number }[] }[]
          }
          if (board.items.find((x) => x.id === team.teamId)?.solvedChallenges.some((s) => s.id === cid)) break
        } else await res.arrayBuffer()
        if (Date.now() - before > 10_000) throw new Error('solve never reached the scoreboard')
        await sleep(10)
      }
      visible.push(Date.now() - before)
    }
    visible.sort((a, b) => a - b)

    // 3. Correct flags as fast as they are accepted; CPU of the server until all are judged,
    // per solve the phase added (an HTTP 200 is a recorded submission, not yet a solve).
    let cursor = 0
    const acceptedNow = async (): Promise<number> =>
      (await client.query(`select count(*)::int n from submissions where status = 'Accepted'`)).rows[0].n
    const solvesBefore = await acceptedNow()
    const cpuBefore = serversCpu()
    const submits = await load({
      port: PORT,
      concurrency: opts.concurrency,
      seconds: opts.seconds,
      next: () => {
        for (let tries = 0; tries < world.teams.length; tries++) {
          const team = world.teams[cursor++ % world.teams.length]!
          const cid = team.unsolved.shift()
          if (cid === undefined) continue
          return {
            method: 'POST',
            path: `/api/game/${world.gameId}/challenges/${cid}`,
            headers: headers(team.token),
            body: JSON.stringify({ flag: `flag{bench_${cid}}` }),
          }
        }
        return null
      },
    })
    const judgeStart = Date.now()
    for (;;) {
      const pending = await client.query(
        `select count(*)::int n from submissions where status = 'FlagSubmitted'`,
      )
      if (pending.rows[0].n === 0) break
      await sleep(100)
    }
    const judgeTail = Date.now() - judgeStart
    const cpuUsed = serversCpu() - cpuBefore
    const recorded = submits.statuses[200] ?? 0
    const total = await acceptedNow()
    const solved = total - solvesBefore
    await client.end()

    const perRound = (rounds: LoadResult[]) => rounds.map((r) => r.perSecond.toFixed(0)).join(', ')
    say('')
    say(`Scoreboard reads:        ${rate(readRounds).toFixed(0)} req/s (rounds: ${perRound(readRounds)})`)
    for (const r of readRounds) say(`  ${fmt(r)}`)
    say(`Bare Fastify, same bytes: ${rate(bareRounds).toFixed(0)} req/s (rounds: ${perRound(bareRounds)})`)
    say(
      `  → reads at ${((rate(readRounds) / rate(bareRounds)) * 100).toFixed(0)}% of bare Fastify's rate, turns taken alternately (target ≥ 70%)`,
    )
    say(`Correct-flag submits:    ${fmt(submits)}`)
    say(`  judging finished ${judgeTail} ms after the last submission`)
    say(
      `Flag → scoreboard:       median ${median(visible)} ms, max ${visible.at(-1)} ms over ${visible.length} solves (target < 1000 ms)`,
    )
    say(
      `Server CPU per solve:    ${((cpuUsed / Math.max(1, solved)) * 1000).toFixed(2)} ms (${cpuUsed.toFixed(1)} CPU-s for ${solved} solves judged in the phase, from ${recorded} submissions answered 200; ${total} solves in the game)`,
    )
  } finally {
    await nginx?.stop()
    for (const child of children) child.kill('SIGINT')
    await sleep(1500)
    cleanUpContainers()
    await admin?.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
    await admin?.end()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
