/**
 * `npm run bench -- --scale 1,2,3`: what each added server costs. For every server count in
 * turn (alternated over `--rounds`, in the order 1,2,3,3,2,1,… so a drift of the shared machine
 * weighs on every count alike) it resets the seeded game, starts that many built servers behind
 * nginx (several share a Redis started for the phase), and measures correct flags and then board
 * reads, each for `--seconds`. The figure is total CPU per correct verdict and per board read,
 * summed over every server process, Redis and the PostgreSQL backends serving the bench database
 * (`/proc/<pid>/stat`); nginx is reported apart. Server i is pinned to core i mod the core count
 * (`taskset`): with a core per server the ratio shows what more machines would give.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { cpus } from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { freePort, ownRedis, startNginx } from '../../server/test/scaleout/cluster.ts'
import { correctFlagSubmits, type LoadResult, load } from './load.ts'
import type { Seeded } from './seed.ts'
import { sessionCookie } from './seed.ts'
import { serverEnv, waitFor } from './server-process.ts'
import { backendCpu, cpuSeconds } from './verdicts.ts'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface Cpu {
  servers: number
  redis: number
  db: number
  nginx: number
}
const total = (c: Cpu) => c.servers + c.redis + c.db

interface Phase {
  build: string
  servers: number
  flags: LoadResult
  accepted: number
  flagCpu: Cpu
  reads: LoadResult
  readCpu: Cpu
}

/** Process ids whose parent is `parent` (nginx's worker). */
function childrenOf(parent: number): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const ppid = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1])
      if (ppid === parent) found.push(Number(entry))
    } catch {}
  }
  return found
}

/** Whether `taskset` is here to pin the servers. */
function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-V'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export async function scaleBench(opts: {
  root: string
  /** The bench database's URL and name (its backends are found by name). */
  dbUrl: string
  dbName: string
  dataDir: string
  client: pg.Client
  world: Seeded
  counts: number[]
  rounds: number
  seconds: number
  concurrency: number
  /** Where `--cpu-prof` writes each server's profile, or null. */
  profileDir: string | null
  /**
   * Builds to compare, each a folder under server/ (`node scripts/build.mjs --outdir .builds/x`);
   * several alternate phase by phase. Default: `dist` (built when stale).
   */
  builds: string[]
  say: (line: string) => void
}) {
  const { client, world, say } = opts
  const serverDir = path.join(opts.root, 'server')
  if (opts.builds.includes('dist'))
    execFileSync(process.execPath, ['scripts/build.mjs', '--if-stale'], { cwd: serverDir, stdio: 'inherit' })
  const cores = cpus().length
  const pin = hasTaskset()
  say(
    pin
      ? `Server i pinned to core i mod ${cores} (taskset); Redis, PostgreSQL, nginx and this load generator unpinned`
      : 'taskset not found: servers not pinned',
  )

  // The seeded state every phase starts from: the same board and the same flags left to find.
  const seededMax = (await client.query('select coalesce(max(id), 0)::int n from submissions')).rows[0]
    .n as number
  const unsolved = world.teams.map((t) => [...t.unsolved])
  const reset = async () => {
    await client.query(
      `update game_instances gi set is_solved = false from submissions s
       where s.id > $2 and s.game_id = $1 and s.status = 'Accepted'
         and gi.challenge_id = s.challenge_id and gi.participation_id = s.participation_id`,
      [world.gameId, seededMax],
    )
    await client.query('delete from cheat_info where game_id = $1', [world.gameId])
    await client.query('delete from submissions where game_id = $1 and id > $2', [world.gameId, seededMax])
    await client.query('delete from game_events where game_id = $1', [world.gameId])
    await client.query('delete from game_notices where game_id = $1', [world.gameId])
    await client.query(
      `update challenges c set accepted_count = coalesce(x.n, 0), submission_count = coalesce(x.n, 0)
       from challenges c2 left join (select challenge_id, count(*)::int n from submissions where game_id = $1 group by challenge_id) x
         on x.challenge_id = c2.id
       where c.id = c2.id and c.game_id = $1`,
      [world.gameId],
    )
    await client.query('vacuum analyze submissions')
    world.teams.forEach((t, i) => {
      t.unsolved = [...unsolved[i]!]
    })
  }
  const pending = async () =>
    (await client.query(`select count(*)::int n from submissions where status = 'FlagSubmitted'`)).rows[0]
      .n as number

  // A player's address as nginx passes it on (the servers trust it): limits count per player
  // and per reader, as on a public site, instead of skipping loopback.
  const teamAddress = (i: number) => `10.${(i >> 8) & 255}.${i & 255}.1`
  const headers = (token: string) => ({
    cookie: sessionCookie(token),
    'x-xsrf-token': 'bench',
    'x-forwarded-for': teamAddress(Number(token.slice('bench-'.length))),
  })
  const boardPath = `/api/game/${world.gameId}/scoreboard`
  let reader = 0
  const boardRead = () => ({
    method: 'GET',
    path: boardPath,
    headers: {
      'x-forwarded-for': `10.200.${(reader >> 8) & 255}.${reader++ & 255}`,
      'accept-encoding': 'br',
    },
  })

  const phase = async (build: string, n: number, label: string): Promise<Phase> => {
    await reset()
    const children: ChildProcess[] = []
    const redis = n > 1 ? ownRedis(await freePort()) : null
    await redis?.start()
    const redisPid = redis
      ? Number(
          execFileSync('redis-cli', ['-u', redis.url, 'info', 'server'])
            .toString()
            .match(/process_id:(\d+)/)![1],
        )
      : 0
    let nginx: Awaited<ReturnType<typeof startNginx>> | null = null
    try {
      const ports: number[] = []
      for (let i = 0; i < n; i++) {
        const port = await freePort()
        const node = [
          ...(opts.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.join(opts.profileDir, label)}`] : []),
          path.join(build, 'main.js'),
        ]
        const child = spawn(
          pin ? 'taskset' : process.execPath,
          pin ? ['-c', String(i % cores), process.execPath, ...node] : node,
          {
            cwd: serverDir,
            env: serverEnv(port, 'Bench4dmin', {
              DATABASE_URL: opts.dbUrl,
              DATA_DIR: opts.dataDir,
              TRUST_PROXY: '127.0.0.1',
              CONTAINER_BACKEND: 'none',
              ...(redis ? { REDIS_URL: redis.url, REDIS_PREFIX: 'bench:' } : {}),
            }),
            stdio: ['ignore', 'inherit', 'inherit'],
          },
        )
        children.push(child)
        await waitFor(`http://127.0.0.1:${port}/healthz`, child)
        ports.push(port)
      }
      nginx = await startNginx(ports)
      const lb = Number(new URL(nginx.url).port)
      const nginxPids = [nginx.pid, ...childrenOf(nginx.pid)]
      // Each server builds its board and warms up before anything is counted.
      for (const port of ports) await (await fetch(`http://127.0.0.1:${port}${boardPath}`)).arrayBuffer()
      const next = correctFlagSubmits(world.gameId, world.teams, headers)
      await load({ port: lb, concurrency: opts.concurrency, seconds: 1, next })
      await load({ port: lb, concurrency: 32, seconds: 1, next: boardRead })
      while ((await pending()) > 0) await sleep(100)
      await sleep(1000)

      const snapshot = () => {
        const db = backendCpu(opts.dbName)
        const servers = children.reduce((s, c) => s + cpuSeconds(c.pid!), 0)
        const r = redisPid ? cpuSeconds(redisPid) : 0
        const x = nginxPids.reduce((s, p) => s + cpuSeconds(p), 0)
        return (): Cpu => ({
          servers: children.reduce((s, c) => s + cpuSeconds(c.pid!), 0) - servers,
          redis: (redisPid ? cpuSeconds(redisPid) : 0) - r,
          db: db(),
          nginx: nginxPids.reduce((s, p) => s + cpuSeconds(p), 0) - x,
        })
      }
      // Flags: from the first submit until every one is judged and the boards have settled
      // (a rebuild follows the last solve within 800 ms).
      let took = snapshot()
      const flags = await load({ port: lb, concurrency: opts.concurrency, seconds: opts.seconds, next })
      while ((await pending()) > 0) await sleep(100)
      await sleep(1000)
      const flagCpu = took()
      took = snapshot()
      const reads = await load({ port: lb, concurrency: 32, seconds: opts.seconds, next: boardRead })
      const readCpu = took()
      return { build, servers: n, flags, accepted: flags.statuses[200] ?? 0, flagCpu, reads, readCpu }
    } finally {
      await nginx?.stop()
      await Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve()
              c.once('exit', () => resolve())
              c.kill('SIGINT')
            }),
        ),
      )
      await redis?.stop()
    }
  }

  const runs = opts.counts.flatMap((n) => opts.builds.map((build) => ({ n, build })))
  const order: typeof runs = []
  for (let r = 0; r < opts.rounds; r++) order.push(...(r % 2 ? [...runs].reverse() : runs))
  const phases: Phase[] = []
  for (const [i, { n, build }] of order.entries()) {
    const load1 = readFileSync('/proc/loadavg', 'utf8').split(' ')[0]
    const p = await phase(build, n, `${build.replaceAll('/', '-')}-servers-${n}-${i}`)
    phases.push(p)
    say(
      `${build}, ${n} server(s), load ${load1}: ${p.flags.perSecond.toFixed(0)} flags/s (${p.accepted} accepted, statuses ${JSON.stringify(p.flags.statuses)}), ` +
        `${perUnit(total(p.flagCpu), p.accepted)} ms CPU per verdict; ${p.reads.perSecond.toFixed(0)} reads/s (statuses ${JSON.stringify(p.reads.statuses)}), ${perUnit(total(p.readCpu), p.reads.requests)} ms CPU per read`,
    )
  }

  say('')
  say('Total CPU (servers + Redis + PostgreSQL backends; nginx apart), summed over every run of a count:')
  say(
    '| build | servers | flags/s | CPU per verdict: total (servers / Redis / PostgreSQL; nginx) | vs 1 | reads/s | CPU per read: total (servers / Redis / PostgreSQL; nginx) | vs 1 |',
  )
  say(
    '| ----- | ------- | ------- | ------------------------------------------------------------- | ---- | ------- | ---------------------------------------------------------- | ---- |',
  )
  for (const build of opts.builds) {
    const base = { verdict: 0, read: 0 }
    for (const n of opts.counts) {
      const mine = phases.filter((p) => p.servers === n && p.build === build)
      const accepted = mine.reduce((s, p) => s + p.accepted, 0)
      const reads = mine.reduce((s, p) => s + p.reads.requests, 0)
      const sum = (pick: (p: Phase) => Cpu): Cpu => ({
        servers: mine.reduce((s, p) => s + pick(p).servers, 0),
        redis: mine.reduce((s, p) => s + pick(p).redis, 0),
        db: mine.reduce((s, p) => s + pick(p).db, 0),
        nginx: mine.reduce((s, p) => s + pick(p).nginx, 0),
      })
      const f = sum((p) => p.flagCpu)
      const r = sum((p) => p.readCpu)
      const verdict = (total(f) / accepted) * 1000
      const read = (total(r) / reads) * 1000
      if (n === opts.counts[0]) Object.assign(base, { verdict, read })
      const parts = (c: Cpu, count: number) =>
        `${perUnit(total(c), count)} ms (${perUnit(c.servers, count)} / ${perUnit(c.redis, count)} / ${perUnit(c.db, count)}; ${perUnit(c.nginx, count)})`
      const rate = (pick: (p: Phase) => LoadResult) =>
        (mine.reduce((s, p) => s + pick(p).perSecond, 0) / mine.length).toFixed(0)
      say(
        `| ${build} | ${n} | ${rate((p) => p.flags)} | ${parts(f, accepted)} | ${(verdict / base.verdict).toFixed(2)}× | ${rate((p) => p.reads)} | ${parts(r, reads)} | ${(read / base.read).toFixed(2)}× |`,
      )
    }
  }
}

const perUnit = (cpuSeconds: number, count: number) => ((cpuSeconds / Math.max(1, count)) * 1000).toFixed(3)
