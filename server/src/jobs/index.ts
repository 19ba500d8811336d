import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config/index.ts'
import type { Database } from '../db/index.ts'
import type { Clock } from '../infra/clock/index.ts'
import type { Leases } from '../infra/leases/index.ts'
import type { Services } from '../services.ts'

/** One timed job: a named piece of work repeated on an interval. */
interface Job {
  name: string
  everyMs: number
  run(): Promise<unknown>
}

/** Submissions pending this long are taken to have lost their server (see `judge.sweep`). */
const ORPHANED_AFTER_MS = 10_000

/**
 * The server's timed work, registered in one place. Each job runs on one server at a time: the
 * one holding its lease (another takes it over when that server dies or shuts down). A run
 * never overlaps the previous one of the same job, and a failure is logged, not fatal. (The
 * judge itself is a queue on every server, safe to run on several: see judge.service.)
 */
export function startJobs(deps: {
  services: Services
  config: Config
  /** The embedded database's statistics are kept by a job here (it has no autovacuum). */
  database?: Pick<Database, 'analyzeStale'>
  leases: Leases
  log: FastifyBaseLogger
  /** Jobs repeat on its time: moving a test clock past a job's turn runs the job. */
  clock: Clock
}) {
  const { services, config, leases, log, clock } = deps
  const analyzeStale = deps.database?.analyzeStale
  const jobs: Job[] = [
    // Expired containers (game and test) and starts that died with their process.
    {
      name: 'container reaper',
      everyMs: config.containers.reaperIntervalMs,
      run: () => services.containerRuntime.reap(),
    },
    // Containers removed by hand, or left by a start that never recorded itself.
    { name: 'container reconcile', everyMs: 10 * 60_000, run: () => services.containerRuntime.reconcile() },
    // Scheduled release: the new-challenge notice of each opening, posted once across servers.
    { name: 'challenge release', everyMs: 1000, run: () => services.release.releaseDue() },
    // The admin log keeps LOG_RETENTION_DAYS of records.
    { name: 'log trim', everyMs: 3600_000, run: () => services.audit.trim(config.logRetentionDays) },
    // Expired sessions are deleted rather than kept for ever.
    { name: 'session purge', everyMs: 3600_000, run: () => services.sessions.purgeExpired() },
    // Submissions acknowledged by a server that died before judging them.
    { name: 'judge sweep', everyMs: 5_000, run: () => services.judge.sweep(ORPHANED_AFTER_MS) },
    // Scoreboard freezes whose automatic reveal came: the true board and the held-back bloods.
    { name: 'freeze reveal', everyMs: 30_000, run: () => services.freeze.revealDue() },
    // PGlite only: planner statistics of the tables that changed (PostgreSQL's autovacuum does it).
    ...(analyzeStale
      ? [
          {
            name: 'embedded statistics',
            everyMs: 5 * 60_000,
            run: async () => {
              const analysed = await analyzeStale()
              if (analysed.length) log.info({ tables: analysed }, 'analysed the embedded database')
            },
          },
        ]
      : []),
  ]
  let stopped = false
  const timers = jobs.map((job) => {
    let running = false
    return clock
      .setInterval(() => {
        if (running || stopped) return
        running = true
        leases
          .hold(job.name)
          .then(async (mine) => {
            if (!mine || stopped) return
            log.debug({ job: job.name }, 'job ran')
            await job.run()
          })
          .catch((err: unknown) => log.warn({ err, job: job.name }, 'job failed'))
          .finally(() => {
            running = false
          })
      }, job.everyMs)
      .unref()
  })
  return {
    stop() {
      stopped = true
      for (const t of timers) t.clear()
    },
  }
}
