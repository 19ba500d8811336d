/**
 * The fault schedule: kill -9 of a server (restarted on the same data), a restart of Redis (when
 * the rehearsal started it or was told how), a restart of PostgreSQL (only when told how), and
 * the embedded database worker terminated inside the server (SIGUSR2 with
 * PENNANT_FAULT_INJECTION=1, when the built server supports it). Each fault's window runs from
 * its start until the servers answer again, plus a grace period: errors inside a window are
 * expected, 5xx outside one fail the run.
 */
import { type ChildProcess, spawn } from 'node:child_process'
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
}

/** A Redis of the rehearsal's own, on its own port, so restarting it disturbs nobody else. */
export class OwnRedis {
  child: ChildProcess | null = null
  constructor(readonly port: number) {}
  get url() {
    return `redis://127.0.0.1:${this.port}`
  }
  async start() {
    const child = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      {
        stdio: 'ignore',
      },
    )
    this.child = child
    for (let i = 0; i < 100; i++) {
      if (child.exitCode !== null) throw new Error(`redis-server on port ${this.port} exited`)
      const ok = await new Promise<boolean>((resolve) => {
        const p = spawn('redis-cli', ['-p', String(this.port), 'ping'], {
          stdio: ['ignore', 'pipe', 'ignore'],
        })
        let out = ''
        p.stdout!.on('data', (d) => {
          out += d
        })
        p.on('close', () => resolve(out.includes('PONG')))
      })
      if (ok) return
      await sleep(100)
    }
    throw new Error(`redis-server on port ${this.port} did not answer`)
  }
  async stop() {
    const c = this.child
    if (!c || c.exitCode !== null || c.signalCode !== null) return
    const done = new Promise((r) => c.once('exit', r))
    c.kill('SIGTERM')
    await done
  }
}

export interface FaultContext {
  /** Servers this process runs (kill and db-worker need them). */
  servers: ManagedServer[]
  redis: OwnRedis | null
  redisRestartCmd?: string
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
  if (ctx.pgRestartCmd) kinds.push('pg')
  else skipped.push('pg: no --pg-restart-cmd')
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
  switch (kind) {
    case 'kill': {
      const s = ctx.servers[killed++ % ctx.servers.length]!
      const pid = s.pid
      await s.kill9()
      await sleep(1000)
      const t = Date.now()
      try {
        await s.start()
        note = `kill -9 ${s.o.label} (pid ${pid}); back in ${((Date.now() - t) / 1000).toFixed(1)} s`
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
        await sleep(2000)
        await ctx.redis.start()
        note = `Redis on port ${ctx.redis.port} stopped for 2 s and restarted`
      } else {
        const code = await sh(ctx.redisRestartCmd!)
        note = `--redis-restart-cmd exited ${code}`
        recovered = code === 0
      }
      recovered = (await allHealthy(ctx.servers, 60)) && recovered
      break
    }
    case 'pg': {
      const code = await sh(ctx.pgRestartCmd!)
      note = `--pg-restart-cmd exited ${code}`
      recovered = code === 0 && (await allHealthy(ctx.servers, 60))
      break
    }
  }
  const end = ctx.now() + GRACE_MS
  ctx.say(`  ${(start / 1000).toFixed(0)} s: fault ${kind}: ${note}`)
  return { kind, start, end, note, recovered }
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
