/**
 * `npm run rehearse -- --teams N --minutes M --out DIR`: a whole contest against the built server,
 * with faults, then an audit of what the players were told against what the server stored.
 * See docs/organisers/rehearsal.md for the options. Exit code 1 when the audit finds lost,
 * duplicate or misjudged submissions, wrong bloods or boards, 5xx outside fault windows, or a
 * fault the platform did not recover from; 2 on a usage or set-up error.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { buildChallengeImage, dockerAvailable } from '../../../server/test/helpers/challenge-image.ts'
import {
  canRunPostgres,
  type PostgresServer,
  startPostgres,
} from '../../../server/test/helpers/postgres-server.ts'
import {
  freePort,
  hasNginx,
  type OwnRedis,
  ownRedis,
  startNginx,
} from '../../../server/test/scaleout/cluster.ts'
import { createNetwork, dockerNames, removeEverything } from '../containers.ts'
import { audit } from './audit.ts'
import { closeAgents, Recorder } from './client.ts'
import {
  applicable,
  FAULT_KINDS,
  type FaultKind,
  type FaultWindow,
  GRACE_MS,
  runFaults,
  schedule,
} from './faults.ts'
import { play, setUp } from './profile.ts'
import { html, printSummary, progressLine, summarise } from './report.ts'
import { ensureBuilt, ManagedServer, mergeLogGroups, sampleResources, supportsWorkerKill } from './server.ts'

const args = process.argv.slice(2)
const has = (name: string) => args.includes(`--${name}`)
const str = (name: string, fallback?: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1] : fallback
}
const num = (name: string, fallback: number) => {
  const v = str(name)
  if (v === undefined) return fallback
  const n = Number(v)
  if (!Number.isFinite(n) || n < 0) usage(`--${name} takes a number, got ${v}`)
  return n
}
function usage(msg: string): never {
  process.stderr.write(`rehearse: ${msg}\n`)
  process.exit(2)
}
const say = (line: string) => process.stdout.write(`${line}\n`)
/** The checkout whose built server runs: this one, or `--checkout DIR` (e.g. a branch under test). */
const root = path.resolve(
  process.env.INIT_CWD ?? process.cwd(),
  str('checkout') ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..'),
)

/** Kept at the end: asked for, or set when the run fails. */
let keepData = has('keep-data')
/** What to undo at the end (or on SIGINT), last first. */
const cleanups: (() => Promise<unknown> | unknown)[] = []

/** A fresh database on the shared PostgreSQL (BENCH_DATABASE_URL or TEST_DATABASE_URL), dropped at the end. */
async function freshDatabase(localId: string): Promise<string> {
  const base =
    process.env.BENCH_DATABASE_URL ??
    process.env.TEST_DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/test'
  const name = `pennant_rehearse_${localId}`
  const client = new pg.Client({ connectionString: base })
  await client.connect()
  await client.query(`CREATE DATABASE ${name}`)
  await client.end()
  cleanups.push(async () => {
    if (has('keep-db') || keepData) {
      say(`Database kept for inspection: ${name}`)
      return
    }
    const c = new pg.Client({ connectionString: base })
    await c.connect()
    await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await c.end()
  })
  const url = new URL(base)
  url.pathname = `/${name}`
  return url.toString()
}

async function main() {
  const teams = num('teams', 300)
  const minutes = num('minutes', 20)
  const challengeCount = num('challenges', 30)
  const wantContainers = num('containers', 5)
  const out = path.resolve(
    process.env.INIT_CWD ?? process.cwd(),
    str('out', `rehearsal-${new Date().toISOString().replace(/[:.]/g, '-')}`)!,
  )
  const external = str('servers')?.split(',').filter(Boolean) ?? []
  const clusterSize = num('cluster', 1)
  if (!Number.isInteger(clusterSize) || clusterSize < 1)
    usage('--cluster takes a whole number of servers ≥ 1')
  if (external.length && has('cluster')) usage('--cluster starts servers; --servers drives running ones')
  // Several servers need one database and Redis to be one contest: by default a PostgreSQL and
  // a Redis of the rehearsal's own, so both can be restarted as faults.
  const db = str('db', clusterSize > 1 ? 'own-postgres' : 'embedded')
  if (db !== 'embedded' && db !== 'postgres' && db !== 'own-postgres')
    usage('--db takes embedded, postgres or own-postgres')
  if (clusterSize > 1 && db === 'embedded') usage('--cluster needs --db postgres or own-postgres')
  if (db === 'own-postgres' && !canRunPostgres())
    usage('--db own-postgres needs root and Debian’s PostgreSQL binaries (/usr/lib/postgresql/*/bin)')
  if (clusterSize > 1 && !hasNginx()) usage('--cluster needs nginx (apt-get install nginx)')
  const withRedis = has('redis') || clusterSize > 1
  const redisOutageMs = num('redis-outage', clusterSize > 1 ? 30 : 2) * 1000
  const adminUser = str('admin-user', 'Admin')!
  const adminPassword =
    str('admin-password') ??
    process.env.REHEARSE_ADMIN_PASSWORD ??
    (external.length ? process.env.PENNANT_ADMIN_PASSWORD : 'Rehearse1Admin')
  if (!adminPassword) usage('--servers needs the admin password: --admin-password or REHEARSE_ADMIN_PASSWORD')
  const faultArg = str('faults', 'auto')!
  if (teams < 1 || challengeCount < 2 || minutes <= 0) usage('--teams ≥ 1, --challenges ≥ 2, --minutes > 0')
  mkdirSync(out, { recursive: true })

  const rec = new Recorder()
  let cleaned = false
  const cleanUp = async () => {
    if (cleaned) return
    cleaned = true
    for (const c of cleanups.reverse()) {
      try {
        await c()
      } catch (err) {
        say(`clean-up: ${(err as Error).message}`)
      }
    }
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      say(`\n${signal}: cleaning up`)
      void cleanUp().then(() => process.exit(130))
    })

  try {
    // The build first: it blocks this process for a while (no clean-up can run meanwhile).
    if (!external.length && !has('no-build')) ensureBuilt(root, say)
    // Containers: only when a Docker engine answers here.
    let image: string | null = null
    const localId = Date.now().toString(36)
    if (wantContainers > 0) {
      if (await dockerAvailable()) {
        image = await buildChallengeImage()
        if (!external.length) {
          await createNetwork(localId)
          cleanups.push(() => {
            const n = removeEverything(localId, null)
            if (n) say(`Removed ${n} leftover container(s)`)
          })
        }
        say(`Docker engine answers: ${wantContainers} container challenges on ${image}`)
      } else say('No Docker engine answers here: container challenges skipped')
    }

    // The servers: given, or the built server started here (N of them behind nginx with
    // --cluster) on a fresh data directory or database.
    const servers: ManagedServer[] = []
    let redis: OwnRedis | null = null
    let ownPg: PostgresServer | null = null
    let proxy: string | null = null
    const embedded = !external.length && db === 'embedded'
    if (!external.length) {
      const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-rehearse-'))
      cleanups.push(() => {
        // Kept when the run fails, for a look at what the server stored.
        if (keepData) say(`Data directory kept for inspection: ${dataDir}`)
        else return rm(dataDir, { recursive: true, force: true })
      })
      const env: Record<string, string | undefined> = {
        ...process.env,
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        PENNANT_ADMIN_PASSWORD: adminPassword,
        DISABLE_RATE_LIMIT: has('rate-limits') ? 'false' : 'true',
        LOG_LEVEL: str('log-level', 'info'),
        PENNANT_FAULT_INJECTION: '1',
        CONTAINER_BACKEND: image ? 'docker' : 'none',
        ...(image ? { CONTAINER_NETWORK: dockerNames(localId).network } : {}),
        DATABASE_URL: undefined,
        REDIS_URL: undefined,
        INIT_CWD: undefined,
      }
      if (db === 'postgres') env.DATABASE_URL = await freshDatabase(localId)
      else if (db === 'own-postgres') {
        const t = Date.now()
        ownPg = await startPostgres()
        const started = ownPg
        cleanups.push(async () => {
          if (!keepData) return started.close()
          await started.stop()
          say(`PostgreSQL data kept for inspection (stopped): ${started.dir}/data`)
        })
        env.DATABASE_URL = ownPg.url
        say(
          `PostgreSQL of its own on port ${ownPg.port} (initdb, fsync off) up in ${((Date.now() - t) / 1000).toFixed(1)} s`,
        )
      }
      if (withRedis) {
        redis = ownRedis(await freePort())
        await redis.start()
        cleanups.push(() => redis?.stop())
        env.REDIS_URL = redis.url
        env.REDIS_PREFIX = `pennant-rehearse-${localId}:`
      }
      for (let i = 1; i <= clusterSize; i++) {
        const label = clusterSize > 1 ? `server-${i}` : 'server'
        const logFile = path.join(out, `${label}.log`)
        const port = await freePort()
        const server = new ManagedServer({
          root,
          port,
          env: { ...env, PORT: String(port) },
          logFile,
          label,
          now: () => rec.now(),
        })
        writeFileSync(logFile, '')
        cleanups.push(() => server.close())
        const t = Date.now()
        // One after the other: the first applies the migrations (the others would wait on its lock).
        await server.start()
        servers.push(server)
        say(
          `${label} (node server/dist/main.js, ${embedded ? 'PGlite' : 'PostgreSQL'}${redis ? ', own Redis' : ''}) up in ${((Date.now() - t) / 1000).toFixed(1)} s on ${server.url}; log in ${logFile}`,
        )
      }
      if (clusterSize > 1) {
        // As a deployment has it: round robin without stickiness, WebSockets passed through.
        const nginx = await startNginx(servers.map((s) => s.o.port))
        cleanups.push(() => nginx.stop())
        proxy = nginx.url
        say(`nginx round robin over the ${clusterSize} servers on ${proxy}; players go through it`)
      }
    }
    // Where players go (the proxy when there is one); the audit compares every server's board.
    const direct = external.length ? external : servers.map((s) => s.url)
    const urls = proxy ? [proxy] : direct
    // A server that exits on its own is started again, as its supervisor would; the exit still
    // fails the run, and its outage is a window of its own.
    const crashes: FaultWindow[] = []
    for (const s of servers)
      s.onUnexpectedExit = () => {
        if (cleaned) return
        const start = rec.now()
        say(`  ${(start / 1000).toFixed(0)} s: ${s.o.label} EXITED on its own; starting it again`)
        s.start().then(
          () =>
            crashes.push({
              kind: 'crash',
              start,
              end: rec.now() + GRACE_MS,
              note: `${s.o.label} exited on its own; started again`,
              recovered: true,
            }),
          (err: Error) =>
            crashes.push({
              kind: 'crash',
              start,
              end: rec.now(),
              note: `${s.o.label} exited on its own; restart failed: ${err.message}`,
              recovered: false,
            }),
        )
      }

    // Faults.
    const ctx = {
      servers,
      redis,
      redisOutageMs,
      redisRestartCmd: str('redis-restart-cmd'),
      pg: ownPg,
      pgRestartCmd: str('pg-restart-cmd'),
      workerKill: !external.length && supportsWorkerKill(root),
      embedded,
      now: () => rec.now(),
      say,
    }
    const { kinds: possible, skipped } = applicable(ctx)
    let kinds: FaultKind[] = []
    const faultsSkipped = [...skipped]
    if (faultArg === 'auto' || faultArg === 'all') kinds = possible
    else if (faultArg !== 'none')
      for (const k of faultArg.split(',')) {
        if (!FAULT_KINDS.includes(k as FaultKind))
          usage(`--faults takes auto, none or a list of ${FAULT_KINDS.join(', ')}`)
        if (possible.includes(k as FaultKind)) kinds.push(k as FaultKind)
        else if (!skipped.some((s) => s.startsWith(`${k}:`))) faultsSkipped.push(`${k}: not applicable`)
      }
    if (faultArg !== 'auto' && faultArg !== 'all') {
      // Only the skips of faults that were asked for.
      const asked = faultArg === 'none' ? [] : faultArg.split(',')
      faultsSkipped.splice(
        0,
        faultsSkipped.length,
        ...faultsSkipped.filter((s) => asked.some((k) => s.startsWith(`${k}:`))),
      )
    }
    for (const s of faultsSkipped) say(`Fault skipped: ${s}`)

    // Set-up through the API.
    const world = await setUp({
      servers: urls,
      rec,
      adminUser,
      adminPassword,
      teams,
      challenges: challengeCount,
      containers: wantContainers,
      image,
      minutes,
      say,
    })

    // The contest.
    const runMs = minutes * 60_000
    const startAt = rec.now()
    const endAt = startAt + runMs
    const plan = schedule(kinds, runMs).map((p) => ({ ...p, at: p.at + startAt }))
    say(
      `Contest: ${minutes} min from ${(startAt / 1000).toFixed(0)} s; faults: ${plan.map((p) => `${p.kind} at ${(p.at / 1000).toFixed(0)} s`).join(', ') || 'none'}`,
    )
    const resources = sampleResources(servers, () => rec.now())
    let lastCount = 0
    let lastAt = rec.now()
    const progress = setInterval(() => {
      const now = rec.now()
      say(progressLine(rec.samples, lastCount, now, now - lastAt))
      lastCount = rec.samples.length
      lastAt = now
    }, 10_000)
    const running = () => rec.now() < endAt
    const [, windows] = await Promise.all([
      play({
        world,
        rec,
        endAt,
        containerTeams: image ? Math.min(teams, Math.max(5, Math.round(teams / 10)), 30) : 0,
        boardWatchEvery: Math.max(1, Math.round(teams / 20)),
        maxRequestsPerTeam: Math.max(200, Math.round(minutes * 60 * 2)),
        say,
        background: [],
      }),
      runFaults(plan, ctx, running),
    ])
    clearInterval(progress)
    say(`Contest over at ${(rec.now() / 1000).toFixed(0)} s; audit…`)

    // The audit, then the report.
    const result = await audit({ world, servers: direct, rec, say, out })
    resources.stop()
    const faultWindows: FaultWindow[] = [...windows, ...crashes].sort((a, b) => a.start - b.start)
    const summary = summarise({
      samples: rec.samples,
      world,
      audit: result,
      faults: faultWindows,
      faultsSkipped,
      resources: resources.points,
      logGroups: mergeLogGroups(servers.map((s) => s.log)),
      unexpectedExits: servers.flatMap((s) => s.unexpectedExits),
      teams,
      minutes,
    })
    printSummary(summary, rec.samples, resources.points, say)
    if (!summary.ok) keepData = true
    writeFileSync(path.join(out, 'summary.json'), `${JSON.stringify(summary, null, 2)}\n`)
    writeFileSync(
      path.join(out, 'report.html'),
      html(summary, rec.samples, resources.points, rec.now(), world, [
        { t: startAt, label: 'contest starts' },
        { t: endAt, label: 'ends; audit' },
      ]),
    )
    say(
      `Wrote ${path.join(out, 'summary.json')}, ${path.join(out, 'report.html')}${servers.length ? ` and ${servers.map((s) => path.basename(s.o.logFile)).join(', ')}` : ''}`,
    )
    closeAgents()
    await cleanUp()
    return summary.ok ? 0 : 1
  } catch (err) {
    say(`rehearse: ${(err as Error).stack ?? err}`)
    closeAgents()
    await cleanUp()
    return 2
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err)
    process.exit(2)
  },
)
