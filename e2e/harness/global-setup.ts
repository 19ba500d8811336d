import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { createTestDatabase } from './database.ts'
import { ENV } from './env.ts'
import { startMailServer } from './mail-server.ts'
import { ARTIFACTS_DIR, REPO_ROOT, WEB_DIR, WEB_DIST } from './paths.ts'
import { startServer } from './server.ts'

/**
 * Global setup: builds the web client when needed, starts the SMTP listener, creates a fresh
 * database, starts the server on a free port and hands the addresses to the tests through
 * environment variables (see `env.ts`). Returns the teardown, which Playwright runs at the end,
 * after failures and on Ctrl-C alike: stop the server, drop the database, close the SMTP listener.
 */
export default async function globalSetup() {
  const started = Date.now()
  mkdirSync(ARTIFACTS_DIR, { recursive: true })
  buildWebIfNeeded()

  const cleanups: (() => Promise<void>)[] = []
  const teardown = async () => {
    for (const signal of SIGNALS) process.off(signal, onSignal)
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((err: unknown) => console.error('[e2e] teardown step failed:', err))
    }
  }
  // Playwright runs the teardown on Ctrl-C (SIGINT) but simply dies on SIGTERM or SIGHUP (a CI
  // cancel, a closed terminal): clean up first then. (On SIGKILL the server still stops itself,
  // see parent-guard.ts, and the database is dropped by a later run once stale.)
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`[e2e] ${signal}: stopping the server and dropping the database`)
    void teardown().finally(() => process.exit(128 + (signal === 'SIGHUP' ? 1 : 15)))
  }
  for (const signal of SIGNALS) process.once(signal, onSignal)
  try {
    const mail = await startMailServer()
    cleanups.push(mail.close)
    const database = await createTestDatabase()
    cleanups.push(database.drop)

    const adminPassword = `E2e-${randomBytes(12).toString('base64url')}`
    const server = await startServer({
      logFile: path.join(ARTIFACTS_DIR, 'server.log'),
      env: {
        ...database.env,
        PENNANT_ADMIN_PASSWORD: adminPassword,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(mail.smtpPort),
        SMTP_SECURE: 'false',
        SMTP_FROM: 'Pennant <ctf@pennant.test>',
        SMTP_REJECT_UNAUTHORIZED: 'false',
      },
    })
    cleanups.push(server.stop)

    process.env[ENV.baseUrl] = server.url
    process.env[ENV.mailboxUrl] = mail.url
    process.env[ENV.adminPassword] = adminPassword
    process.env[ENV.smtpPort] = String(mail.smtpPort)
    console.log(
      `[e2e] server ${server.url} (${database.description}), mail ${mail.url}, ready in ${Date.now() - started} ms`,
    )
  } catch (err) {
    await teardown()
    throw err
  }
  return teardown
}

const SIGNALS = ['SIGTERM', 'SIGHUP'] as const

/** Builds `web/dist` when it is missing, incomplete or older than `web/src`, and always on CI. */
function buildWebIfNeeded() {
  const reason = whyBuild()
  if (!reason) return
  console.log(`[e2e] building the web client (${reason})…`)
  const started = Date.now()
  const result = spawnSync('npm', ['run', 'build', '-w', 'web'], { cwd: REPO_ROOT, encoding: 'utf8' })
  if (result.status !== 0) {
    throw new Error(`npm run build -w web failed:\n${result.stdout}\n${result.stderr}`)
  }
  console.log(`[e2e] built the web client in ${Date.now() - started} ms`)
}

function whyBuild(): string | null {
  if (process.env.CI === 'true') return 'CI'
  const index = path.join(WEB_DIST, 'index.html')
  if (!existsSync(index)) return 'web/dist/index.html is missing'
  const built = statSync(index).mtimeMs
  const newest = Math.max(
    newestMtime(path.join(WEB_DIR, 'src')),
    statSync(path.join(WEB_DIR, 'index.html')).mtimeMs,
  )
  if (newest > built) return 'web/src changed since the last build'
  // A build cut short (or a dist emptied by hand) leaves index.html pointing at missing files.
  const assets = [...readFileSync(index, 'utf8').matchAll(/(?:src|href)="\/(static\/[^"]+)"/g)]
  if (assets.some((m) => !existsSync(path.join(WEB_DIST, m[1]!)))) return 'web/dist is incomplete'
  return null
}

function newestMtime(dir: string): number {
  let newest = 0
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    const mtime = entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs
    if (mtime > newest) newest = mtime
  }
  return newest
}
