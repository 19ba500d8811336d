import type { FastifyBaseLogger } from 'fastify'
import type { Config } from '../config/index.ts'
import type { Services } from '../services.ts'

/** One timed job: a named piece of work repeated on an interval. */
interface Job {
  name: string
  everyMs: number
  run(): Promise<unknown>
}

/**
 * The server's timed work, registered in one place. A run never overlaps the previous one of the
 * same job, and a failure is logged, not fatal. (The judge is a queue, not a timer: see judge.service.)
 */
export function startJobs(deps: { services: Services; config: Config; log: FastifyBaseLogger }) {
  const { services, config, log } = deps
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
  ]
  const timers = jobs.map((job) => {
    let running = false
    const timer = setInterval(() => {
      if (running) return
      running = true
      job
        .run()
        .catch((err: unknown) => log.warn({ err, job: job.name }, 'job failed'))
        .finally(() => {
          running = false
        })
    }, job.everyMs)
    timer.unref()
    return timer
  })
  return {
    stop() {
      for (const t of timers) clearInterval(t)
    },
  }
}
