import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import net from 'node:net'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { ENV } from './env.ts'
import { E2E_DIR, REPO_ROOT } from './paths.ts'

/** Where runs build the server: inside server/, so the bundle finds node_modules (gitignored). */
const BUILDS_DIR = path.join(REPO_ROOT, 'server', '.builds')

/**
 * Builds the server as `npm start` does (`server/scripts/build.mjs`, esbuild), into a folder of
 * this run's own, so runs side by side or a developer's `server/dist` never change files under a
 * running server. Returns the folder; its `main.js` is what `startServer` runs. Builds a killed
 * run left behind are removed once a day old. About a second.
 */
export function buildServer(): string {
  const stale = Date.now() - 24 * 3600_000
  for (const name of existsSync(BUILDS_DIR) ? readdirSync(BUILDS_DIR) : []) {
    const dir = path.join(BUILDS_DIR, name)
    if (name.startsWith('e2e-') && statSync(dir).mtimeMs < stale)
      rmSync(dir, { recursive: true, force: true })
  }
  const outDir = path.join(BUILDS_DIR, `e2e-${process.pid}-${randomBytes(3).toString('hex')}`)
  const started = Date.now()
  const build = spawnSync(process.execPath, ['server/scripts/build.mjs', '--outdir', outDir], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  })
  if (build.status !== 0) {
    rmSync(outDir, { recursive: true, force: true })
    throw new Error(`building the server failed:\n${build.stdout}\n${build.stderr}`)
  }
  console.log(`[e2e] built the server in ${Date.now() - started} ms`)
  return outDir
}

/** A free TCP port on the loopback interface. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/** Settings from the caller's environment that must not leak into the server under test. */
const SCRUBBED = [
  'DATABASE_URL',
  'DATA_DIR',
  'REDIS_URL',
  'CAPTCHA_PROVIDER',
  'SMTP_USER',
  'SMTP_PASSWORD',
  'TRUST_PROXY',
  'WEB_DIR',
  'PUBLIC_URL',
  'PUBLIC_HOSTS',
  'WEBHOOK_ALLOWED_HOSTS',
]

export interface ServerOptions {
  /** Database, SMTP and admin settings; merged over the defaults below. */
  env: Record<string, string>
  /** Where the server's stdout and stderr go. */
  logFile: string
  /** How long to wait for `/healthz`. */
  startTimeoutMs?: number
}

/**
 * Starts the run's server build (`<build>/main.js`, see `buildServer`) with plain Node, as
 * `npm start` runs `server/dist/main.js`, on a free port and waits until `GET /healthz` answers
 * 200. `stop()` sends SIGTERM and waits, then SIGKILL.
 */
export async function startServer(options: ServerOptions) {
  const build = process.env[ENV.serverBuild]
  if (!build) throw new Error(`${ENV.serverBuild} is not set: run the tests through playwright.config.ts`)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of SCRUBBED) delete env[key]
  Object.assign(env, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    WEB_DIR: path.join(REPO_ROOT, 'web', 'dist'),
    LOG_LEVEL: 'warn',
    DISABLE_RATE_LIMIT: 'true',
    // The webhook spec's receiver listens on loopback, which webhooks may reach only when allowed.
    WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    PENNANT_E2E_PARENT_GUARD: '1',
    // Tests move the server's clock forward instead of waiting (`AdminApi.advanceClock`).
    PENNANT_TEST_CLOCK: '1',
    ...options.env,
  })

  const log = openSync(options.logFile, 'w')
  const guard = pathToFileURL(path.join(E2E_DIR, 'harness', 'parent-guard.mjs')).href
  const child: ChildProcess = spawn(process.execPath, ['--import', guard, path.join(build, 'main.js')], {
    cwd: REPO_ROOT,
    env,
    stdio: ['pipe', log, log],
  })
  closeSync(log)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  // Last resort if the runner exits without the teardown; the parent guard covers harder deaths.
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)

  const running = () => child.exitCode === null && child.signalCode === null
  const stop = async () => {
    process.off('exit', killOnExit)
    if (running()) {
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    }
    child.stdin?.destroy()
  }

  const deadline = Date.now() + (options.startTimeoutMs ?? 60_000)
  for (;;) {
    if (!running()) {
      await stop()
      throw new Error(
        `the server exited during start-up (${child.exitCode ?? child.signalCode}):\n${tail(options.logFile)}`,
      )
    }
    try {
      const res = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) })
      if (res.ok) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop()
      throw new Error(`the server did not answer ${url}/healthz in time:\n${tail(options.logFile)}`)
    }
    // real wait: polling a starting server process for /healthz
    await new Promise((resolve) => setTimeout(resolve, 150))
  }
  return { url, port, pid: child.pid, stop }
}
export type RunningServer = Awaited<ReturnType<typeof startServer>>

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n')
  } catch {
    return '(no log)'
  }
}
