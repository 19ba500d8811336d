/**
 * The built server as `npm start` runs it (`node server/dist/main.js`), started, killed and
 * restarted with the same data; every line it writes goes to its log file, and lines at level
 * ≥ 50 (pino's error) are grouped by message for the summary. Also CPU and RSS sampling.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { createWriteStream, readdirSync, readFileSync, type WriteStream } from 'node:fs'
import path from 'node:path'
import { sleep } from './client.ts'

export interface LogGroup {
  level: number
  msg: string
  count: number
  first: string
  example: string
  /** When each line came, in milliseconds of the run (for counting those outside fault windows). */
  at: number[]
  outsideFaults?: number
}

/** Error lines of a server log, grouped by level and message. */
export class LogWatch {
  groups = new Map<string, LogGroup>()
  constructor(readonly label: string) {}
  line(raw: string, at: number) {
    let level = 0
    let msg = raw.slice(0, 200)
    try {
      const j = JSON.parse(raw) as { level?: number; msg?: string; err?: { message?: string } }
      level = j.level ?? 0
      msg = j.msg ?? ''
      if (level < 50) return
      if (j.err?.message && !msg.includes(j.err.message)) msg = `${msg} — ${j.err.message}`.slice(0, 300)
    } catch {
      // Not pino's JSON: a stack trace or console.error; kept when it looks like an error.
      if (!/error|exception|fatal|panic|abort/i.test(raw)) return
      level = -1
    }
    const key = `${level} ${msg}`
    const g = this.groups.get(key)
    if (g) {
      g.count++
      g.at.push(at)
    } else
      this.groups.set(key, {
        level,
        msg,
        count: 1,
        first: `${(at / 1000).toFixed(1)} s`,
        example: raw.slice(0, 600),
        at: [at],
      })
  }
}

/**
 * The groups of several servers' logs as one list: the same message from each server is one
 * line of the summary (with its count over all of them), not one line per server.
 */
export function mergeLogGroups(watches: LogWatch[]): LogGroup[] {
  const merged = new Map<string, LogGroup>()
  for (const watch of watches)
    for (const [key, g] of watch.groups) {
      const m = merged.get(key)
      if (!m) merged.set(key, { ...g, at: [...g.at] })
      else {
        // Lines come in order, so a group's first time is its first entry.
        if (g.at[0]! < m.at[0]!) Object.assign(m, { first: g.first, example: g.example })
        m.count += g.count
        m.at = [...m.at, ...g.at].sort((a, b) => a - b)
      }
    }
  return [...merged.values()]
}

/** Builds the web client and the server when their builds are stale, as `npm start` does. */
export function ensureBuilt(root: string, say: (s: string) => void) {
  for (const [cmd, args] of [
    ['npm', ['run', '-s', 'ensure-built', '-w', 'web']],
    [process.execPath, ['server/scripts/build.mjs', '--if-stale']],
  ] as const) {
    const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${r.status})`)
  }
  say('Built: web/dist and server/dist are current')
}

/** Whether the built server terminates its PGlite worker on SIGUSR2 (with PENNANT_FAULT_INJECTION=1). */
export function supportsWorkerKill(root: string): boolean {
  const dist = path.join(root, 'server/dist')
  try {
    for (const f of readdirSync(dist)) {
      if (!f.endsWith('.js')) continue
      const text = readFileSync(path.join(dist, f), 'utf8')
      if (text.includes('PENNANT_FAULT_INJECTION') && text.includes('SIGUSR2')) return true
    }
  } catch {}
  return false
}

export class ManagedServer {
  child: ChildProcess | null = null
  readonly log: LogWatch
  private file: WriteStream
  starts = 0
  /** Set while the harness itself stops or kills the server: its exit is expected. */
  expectExit = false
  unexpectedExits: string[] = []
  /** Called when the server exits without being asked to (a supervisor would start it again). */
  onUnexpectedExit: (() => void) | null = null

  constructor(
    readonly o: {
      root: string
      port: number
      env: Record<string, string | undefined>
      logFile: string
      label: string
      now: () => number
    },
  ) {
    this.log = new LogWatch(o.label)
    this.file = createWriteStream(o.logFile, { flags: 'a' })
  }
  get url() {
    return `http://127.0.0.1:${this.o.port}`
  }
  get pid() {
    return this.child?.pid ?? null
  }

  async start(timeoutS = 120) {
    this.starts++
    this.expectExit = false
    const child = spawn(process.execPath, [path.join(this.o.root, 'server/dist/main.js')], {
      cwd: path.join(this.o.root, 'server'),
      env: this.o.env as NodeJS.ProcessEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    this.child = child
    for (const stream of [child.stdout!, child.stderr!]) {
      let rest = ''
      stream.setEncoding('utf8')
      stream.on('data', (chunk: string) => {
        this.file.write(chunk)
        const lines = (rest + chunk).split('\n')
        rest = lines.pop() ?? ''
        for (const l of lines) if (l.trim()) this.log.line(l, this.o.now())
      })
    }
    child.on('exit', (code, signal) => {
      if (!this.expectExit && this.child === child) {
        // Exit 0 is the server's own clean shutdown: a SIGTERM or SIGINT from outside the rehearsal.
        const how = signal ?? (code === 0 ? '0 (clean shutdown: stopped from outside)' : code)
        this.unexpectedExits.push(`${(this.o.now() / 1000).toFixed(1)} s: exit ${how}`)
        this.onUnexpectedExit?.()
      }
    })
    const deadline = Date.now() + timeoutS * 1000
    for (;;) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`${this.o.label} exited during start-up (${child.signalCode ?? child.exitCode})`)
      try {
        const r = await fetch(`${this.url}/healthz`)
        if (r.ok) return
      } catch {}
      if (Date.now() > deadline) throw new Error(`${this.o.label} did not answer /healthz in ${timeoutS} s`)
      await sleep(100)
    }
  }

  /** Waits until /healthz answers 200 again (after a fault); false when it does not in time. */
  async healthy(timeoutS = 60): Promise<boolean> {
    const deadline = Date.now() + timeoutS * 1000
    while (Date.now() < deadline) {
      try {
        const r = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2000) })
        if (r.ok) return true
      } catch {}
      await sleep(200)
    }
    return false
  }

  /** Waits until `/healthz/ready` says this server is on Redis again (shared mode); false when not in time. */
  async redisUp(timeoutS = 60): Promise<boolean> {
    const deadline = Date.now() + timeoutS * 1000
    while (Date.now() < deadline) {
      try {
        const r = await fetch(`${this.url}/healthz/ready`, { signal: AbortSignal.timeout(2000) })
        if (((await r.json()) as { redis?: string }).redis !== 'degraded') return true
      } catch {}
      await sleep(200)
    }
    return false
  }

  private exited(): Promise<void> {
    const c = this.child
    if (!c || c.exitCode !== null || c.signalCode !== null) return Promise.resolve()
    return new Promise((r) => c.once('exit', () => r()))
  }

  async kill9() {
    this.expectExit = true
    const done = this.exited()
    this.child?.kill('SIGKILL')
    await done
  }

  async stop() {
    this.expectExit = true
    const done = this.exited()
    this.child?.kill('SIGTERM')
    const t = setTimeout(() => this.child?.kill('SIGKILL'), 30_000)
    await done
    clearTimeout(t)
  }

  async close() {
    await this.stop()
    await new Promise((r) => this.file.end(r))
  }
}

/** CPU seconds (user + system) of a process so far; null when it cannot be read. */
export function cpuSeconds(pid: number): number | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return null
  }
}

/** Resident memory of a process in MiB; null when it cannot be read. */
export function rssMiB(pid: number): number | null {
  try {
    const m = readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmRSS:\s+(\d+) kB/)
    return m ? Number(m[1]) / 1024 : null
  } catch {
    return null
  }
}

export interface ResourcePoint {
  t: number
  server: string
  /** Share of one core over the last interval, in percent. */
  cpu: number
  rss: number
}

/** Samples every server's CPU and RSS every `everyMs` (only servers this process started). */
export function sampleResources(servers: ManagedServer[], now: () => number, everyMs = 2000) {
  const points: ResourcePoint[] = []
  const last = new Map<string, { pid: number; cpu: number; t: number }>()
  const timer = setInterval(() => {
    for (const s of servers) {
      const pid = s.pid
      if (!pid) continue
      const cpu = cpuSeconds(pid)
      const rss = rssMiB(pid)
      if (cpu === null || rss === null) continue
      const t = now()
      const prev = last.get(s.o.label)
      if (prev && prev.pid === pid)
        points.push({ t, server: s.o.label, cpu: ((cpu - prev.cpu) / ((t - prev.t) / 1000)) * 100, rss })
      last.set(s.o.label, { pid, cpu, t })
    }
  }, everyMs)
  return { points, stop: () => clearInterval(timer) }
}
