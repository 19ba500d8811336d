/**
 * The fault schedule: kill -9 of a server (restarted on the same data), a Redis outage (when
 * the rehearsal started Redis or was told how to restart it), a restart of PostgreSQL (when the
 * rehearsal started its own or was told how), and the embedded database worker terminated
 * inside the server (SIGUSR2 with PENNANT_FAULT_INJECTION=1, when the built server supports it).
 * Each fault's window runs from its start until the servers answer again, plus a grace period:
 * errors inside a window are expected, 5xx outside one fail the run.
 */
import { spawn } from 'node:child_process'
import type { PostgresServer } from '../../../server/test/helpers/postgres-server.ts'
import type { OwnRedis } from '../../../server/test/scaleout/cluster.ts'
import { sleep } from './client.ts'
import type { ManagedServer } from './server.ts'

export const FAULT_KINDS = ['kill', 'db-worker', 'redis', 'pg'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

/** Errors this long after a fault's recovery still count as the fault's. */
export const GRACE_MS = 10_000

export interface FaultWindow {
  /** A scheduled fault, or `crash`: the server exited on its own and was started again. */
  kind: FaultKind | 'crash'
  start: number
  end: number
  note: string
  recovered: boolean
  /** When the part itself was away (server killed → listening again, Redis down → up, PostgreSQL restarting). */
  outage?: { start: number; end: number }
}

export interface FaultContext {
  /** Servers this process runs (kill and db-worker need them). */
  servers: ManagedServer[]
  redis: OwnRedis | null
  /** How long the `redis` fault keeps Redis down, in milliseconds. */
  redisOutageMs: number
  redisRestartCmd?: string
  /** A PostgreSQL this process started (restarted with pg_ctl for the `pg` fault). */
  pg: PostgresServer | null
  pgRestartCmd?: string
  /** Whether the built server terminates its PGlite worker on SIGUSR2. */
  workerKill: boolean
  embedded: boolean
  now: () => number
  say: (s: string) => void
}

/** The faults that apply to this set-up, and why the others do not. */
export function applicable(ctx: FaultContext): { kinds: FaultKind[]; skipped: string[] } {
  const kinds: FaultKind[] = []
  const skipped: string[] = []
  if (ctx.servers.length) kinds.push('kill')
  else skipped.push('kill: the servers are not this process’s (--servers)')
  if (!ctx.servers.length || !ctx.embedded)
    skipped.push('db-worker: only for a server this process runs on PGlite')
  else if (!ctx.workerKill)
    skipped.push(
      'db-worker: signal not supported by this build (no PENNANT_FAULT_INJECTION / SIGUSR2 in server/dist)',
    )
  else kinds.push('db-worker')
  if (ctx.redis || ctx.redisRestartCmd) kinds.push('redis')
  else skipped.push('redis: no Redis started here (--redis) and no --redis-restart-cmd')
  if (ctx.pg || ctx.pgRestartCmd) kinds.push('pg')
  else skipped.push('pg: no PostgreSQL started here (--db own-postgres) and no --pg-restart-cmd')
  return { kinds, skipped }
}

/** Faults evenly spread over 20 %–80 % of the run, in the order given. */
export function schedule(kinds: FaultKind[], runMs: number): { at: number; kind: FaultKind }[] {
  return kinds.map((kind, i) => ({ kind, at: Math.round(runMs * (0.2 + (0.6 * (i + 0.5)) / kinds.length)) }))
}

function sh(cmd: string): Promise<number> {
  return new Promise((resolve) => {
    const p = spawn('sh', ['-c', cmd], { stdio: 'inherit' })
    p.on('close', (code) => resolve(code ?? 1))
  })
}

async function allHealthy(servers: ManagedServer[], timeoutS: number) {
  const r = await Promise.all(servers.map((s) => s.healthy(timeoutS)))
  return r.every(Boolean)
}

let killed = 0

/** Injects one fault and waits for recovery; the window it opened. */
export async function inject(kind: FaultKind, ctx: FaultContext): Promise<FaultWindow> {
  const start = ctx.now()
  let note = ''
  let recovered = true
  let outage: FaultWindow['outage']
  const took = (from: number) => `${((ctx.now() - from) / 1000).toFixed(1)} s`
  switch (kind) {
    case 'kill': {
      const s = ctx.servers[killed++ % ctx.servers.length]!
      const pid = s.pid
      await s.kill9()
      // A supervisor notices and starts it again (systemd's RestartSec=1).
      await sleep(1000)
      try {
        await s.start()
        outage = { start, end: ctx.now() }
        note = `kill -9 ${s.o.label} (pid ${pid}); serving again after ${took(start)}`
      } catch (err) {
        recovered = false
        note = `kill -9 ${s.o.label} (pid ${pid}); restart FAILED: ${(err as Error).message}`
      }
      break
    }
    case 'db-worker': {
      const s = ctx.servers[0]!
      process.kill(s.pid!, 'SIGUSR2')
      await sleep(1000)
      const t = Date.now()
      recovered = (await s.healthy(60)) && s.child?.exitCode === null && s.child.signalCode === null
      note = recovered
        ? `SIGUSR2 to ${s.o.label} (pid ${s.pid}): database worker terminated; healthy after ${((Date.now() - t) / 1000 + 1).toFixed(1)} s`
        : `SIGUSR2 to ${s.o.label}: the server did not recover`
      break
    }
    case 'redis': {
      if (ctx.redis) {
        await ctx.redis.stop()
        await sleep(ctx.redisOutageMs)
        await ctx.redis.start()
        outage = { start, end: ctx.now() }
        const down = took(start)
        // Back in shared mode (not only answering): every server's readiness says Redis is up.
        const t = ctx.now()
        const shared = await Promise.all(ctx.servers.map((s) => s.redisUp(60)))
        recovered = shared.every(Boolean)
        note = `Redis on port ${ctx.redis.port} killed, down ${down}, restarted; ${recovered ? `every server back on it ${took(t)} later` : 'a server did NOT return to shared mode'}`
      } else {
        const code = await sh(ctx.redisRestartCmd!)
        note = `--redis-restart-cmd exited ${code}`
        recovered = code === 0
      }
      recovered = (await allHealthy(ctx.servers, 60)) && recovered
      break
    }
    case 'pg': {
      if (ctx.pg) {
        try {
          await ctx.pg.restart()
          outage = { start, end: ctx.now() }
          note = `PostgreSQL on port ${ctx.pg.port} restarted (pg_ctl restart -m fast) in ${took(start)}`
        } catch (err) {
          recovered = false
          note = `PostgreSQL restart FAILED: ${(err as Error).message}`
        }
      } else {
        const code = await sh(ctx.pgRestartCmd!)
        note = `--pg-restart-cmd exited ${code}`
        recovered = code === 0
      }
      recovered = recovered && (await allHealthy(ctx.servers, 60))
      break
    }
  }
  const end = ctx.now() + GRACE_MS
  ctx.say(`  ${(start / 1000).toFixed(0)} s: fault ${kind}: ${note}`)
  return { kind, start, end, note, recovered, ...(outage ? { outage } : {}) }
}

/** Runs the schedule against the clock; stops early when `running` turns false. */
export async function runFaults(
  plan: { at: number; kind: FaultKind }[],
  ctx: FaultContext,
  running: () => boolean,
): Promise<FaultWindow[]> {
  const windows: FaultWindow[] = []
  for (const step of plan) {
    while (running() && ctx.now() < step.at) await sleep(200)
    if (!running()) break
    windows.push(await inject(step.kind, ctx))
  }
  return windows
}
