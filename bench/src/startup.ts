/**
 * `npm run bench:startup`: cold start and idle memory of the server. Seeds a running game
 * (1 000 teams of one player, 30 challenges, 10 solves per team by default) once on PostgreSQL
 * and once in a PGlite data folder, then starts the server process several times on each and
 * prints the time from spawning it to the first 200 of that game's scoreboard, and its resident
 * memory 3 s and 5 s after that, after a minute idle, and its peak (V8 returns the start-up's spent heap only once
 * the process has been idle for a while: its memory reducer ran after 45–60 s here).
 *   --teams 1000 --challenges 30 --solves 10000 --runs 3 --idle 60
 *   --from dist   runs the built server (`server/dist/main.js`, what `npm start` runs; built
 *                 first if stale); `--from src` runs the sources through the tsx loader;
 *                 `--from <path>/main.js` another build as it is (WEB_DIR from the environment);
 *                 `--from <path>/main.ts` another checkout's sources (through tsx), to compare
 *   --db pg,pglite  which databases
 *   --containers none  the CONTAINER_BACKEND (`auto` also loads the Docker client when an engine
 *                 answers, ~25 MiB more)
 * The database server comes from BENCH_DATABASE_URL (default: the machine's PostgreSQL).
 */
import { execFileSync, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { PGlite } from '@electric-sql/pglite'
import pg from 'pg'
import { openDatabase } from '../../server/src/db/index.ts'
import { seed } from './seed.ts'
import { serverEnv } from './server-process.ts'
import { median } from './stats.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const teams = Number(opt('teams', '1000'))
const challenges = Number(opt('challenges', '30'))
const solves = Number(opt('solves', String(teams * 10)))
const runs = Number(opt('runs', '3'))
const idleSeconds = Number(opt('idle', '60'))
const from = opt('from', 'dist')
const databases = opt('db', 'pg,pglite').split(',')
const containers = opt('containers', 'none')
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PORT = 18900 + Math.floor(Math.random() * 400)

const say = (line: string) => process.stdout.write(`${line}\n`)
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100
}

/** Resident memory of a process (`VmRSS`), or its peak so far (`VmHWM`), in MiB. */
function rssMiB(pid: number, field: 'VmRSS' | 'VmHWM' = 'VmRSS'): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`))
  return Number(line?.match(/\d+/)?.[0] ?? 0) / 1024
}

/** The command that starts the server: the built output, or the sources through tsx. */
function serverCommand(): string[] {
  if (from === 'dist') return [path.join(root, 'server/dist/main.js')]
  // Another build runs as it is: through tsx's loader it cost seconds and hundreds of MiB more.
  if (from.endsWith('.js')) return [path.resolve(from)]
  const sources = from === 'src' ? path.join(root, 'server/src/main.ts') : path.resolve(from)
  return ['--import', 'tsx', sources]
}

/** One cold start: spawn → first 200 of the board, then RSS 5 s later and after `idleSeconds`. */
async function startOnce(env: Record<string, string>, gameId: number) {
  const dataDir = env.DATA_DIR!
  const started = performance.now()
  const child = spawn(process.execPath, serverCommand(), {
    cwd: root,
    env: serverEnv(PORT, 'Bench4dmin', { DATA_DIR: dataDir, CONTAINER_BACKEND: containers, ...env }),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  try {
    let ms = 0
    let cpu = 0
    for (;;) {
      if (child.exitCode !== null) throw new Error('server exited during start-up')
      try {
        const res = await fetch(`http://127.0.0.1:${PORT}/api/game/${gameId}/scoreboard`)
        await res.arrayBuffer()
        if (res.status === 200) {
          ms = performance.now() - started
          cpu = cpuSeconds(child.pid!)
          break
        }
      } catch {}
      if (performance.now() - started > 60_000) throw new Error('no scoreboard within 60 s')
      await sleep(10)
    }
    await sleep(3000)
    const at3 = rssMiB(child.pid!)
    await sleep(2000)
    const early = rssMiB(child.pid!)
    await sleep(Math.max(0, idleSeconds - 5) * 1000)
    return { ms, cpu, at3, early, rss: rssMiB(child.pid!), peak: rssMiB(child.pid!, 'VmHWM') }
  } finally {
    child.kill('SIGTERM')
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)))
  }
}

async function measure(label: string, env: Record<string, string>, gameId: number) {
  const results: { ms: number; cpu: number; at3: number; early: number; rss: number; peak: number }[] = []
  for (let i = 0; i < runs; i++) results.push(await startOnce(env, gameId))
  const ms = results.map((r) => r.ms)
  const rss = results.map((r) => r.rss)
  const cpu = results.map((r) => r.cpu)
  const early = results.map((r) => r.early)
  const at3 = results.map((r) => r.at3)
  const peak = results.map((r) => r.peak)
  const mib = (values: number[]) => `${median(values).toFixed(0)} MiB`
  say(
    `| ${label} | ${(median(ms) / 1000).toFixed(2)} s | ${(Math.max(...ms) / 1000).toFixed(2)} s | ${median(cpu).toFixed(2)} s | ${mib(at3)} | ${mib(early)} | ${mib(rss)} | ${mib(peak)} |`,
  )
}

/** A `pg.Client`-shaped face of PGlite, enough for the seeder's queries. */
const pgliteClient = (db: PGlite) =>
  ({ query: (text: string, params?: unknown[]) => db.query(text, params) }) as unknown as pg.Client

async function main() {
  if (from === 'dist')
    execFileSync('npm', ['run', '-s', 'build', '-w', 'server'], { cwd: root, stdio: 'inherit' })
  const world = { teams, challenges, solves }
  say(
    `Cold start (spawn → first 200 of the scoreboard) and resident memory (medians); ${teams} teams, ${challenges} challenges, ${solves} solves; server from ${from}, containers ${containers}; ${runs} runs each`,
  )
  // CPU time of the server until that first answer: what the start costs whatever else the
  // machine is doing (wall time on a shared machine also counts the waits for a core).
  say(
    `| database | start, median | start, max | server CPU until then | RSS 3 s later | RSS 5 s later | RSS after ${idleSeconds} s idle | peak RSS |`,
  )
  say('|---|---|---|---|---|---|---|---|')
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-startup-'))
  try {
    if (databases.includes('pg')) {
      const dbName = `pennant_bench_${Date.now().toString(36)}`
      const admin = new pg.Client({ connectionString: serverUrl })
      await admin.connect()
      await admin.query(`CREATE DATABASE ${dbName}`)
      const url = new URL(serverUrl)
      url.pathname = `/${dbName}`
      try {
        const migrated = await openDatabase({ url: url.toString(), dataDir: null })
        await migrated.close()
        const client = new pg.Client({ connectionString: url.toString() })
        await client.connect()
        const { gameId } = await seed(client, world)
        await client.end()
        await measure('PostgreSQL', { DATABASE_URL: url.toString(), DATA_DIR: dataDir }, gameId)
      } finally {
        await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
        await admin.end()
      }
    }
    if (databases.includes('pglite')) {
      const migrated = await openDatabase({ dataDir })
      await migrated.close()
      const db = new PGlite(path.join(dataDir, 'db'))
      const { gameId } = await seed(pgliteClient(db), world)
      await db.close()
      await measure('PGlite', { DATABASE_URL: '', DATA_DIR: dataDir }, gameId)
    }
  } finally {
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
