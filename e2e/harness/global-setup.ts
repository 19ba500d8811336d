import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { prepareContainers } from './containers.ts'
import { createTestDatabase } from './database.ts'
import { ENV } from './env.ts'
import { startMailServer } from './mail-server.ts'
import { ARTIFACTS_DIR, REPO_ROOT, WEB_DIR } from './paths.ts'
import { buildServer, startServer } from './server.ts'

/**
 * Global setup: builds the web client and the server (as `npm start` does), starts the SMTP listener, creates a fresh
 * database, prepares challenge containers, starts the server on a free port and hands the
 * addresses to the tests through environment variables (see `env.ts`). Returns the teardown,
 * which Playwright runs at the end, after failures and on Ctrl-C alike: stop the server, remove
 * the run's containers, drop the database, close the SMTP listener.
 */
export default async function globalSetup() {
  const started = Date.now()
  mkdirSync(ARTIFACTS_DIR, { recursive: true })

  const cleanups: (() => Promise<void>)[] = []
  const teardown = async () => {
    for (const signal of SIGNALS) process.off(signal, onSignal)
    for (const cleanup of cleanups.splice(0).reverse()) {
      await cleanup().catch((err: unknown) => console.error('[e2e] teardown step failed:', err))
    }
  }
  // Playwright runs the teardown on Ctrl-C (SIGINT) but simply dies on SIGTERM or SIGHUP (a CI
  // cancel, a closed terminal): clean up first then. (On SIGKILL the server still stops itself,
  // see parent-guard.mjs, and the database is dropped by a later run once stale.)
  const onSignal = (signal: NodeJS.Signals) => {
    console.error(`[e2e] ${signal}: stopping the server and dropping the database`)
    void teardown().finally(() => process.exit(128 + (signal === 'SIGHUP' ? 1 : 15)))
  }
  for (const signal of SIGNALS) process.once(signal, onSignal)
  try {
    const webDir = buildWeb()
    cleanups.push(async () => rmSync(webDir, { recursive: true, force: true }))
    // Every server of the run (this one, and those a spec starts) runs this build, not the sources.
    const serverBuild = buildServer()
    cleanups.push(async () => rmSync(serverBuild, { recursive: true, force: true }))
    process.env[ENV.serverBuild] = serverBuild
    const mail = await startMailServer()
    cleanups.push(mail.close)
    const database = await createTestDatabase()
    cleanups.push(database.drop)
    // Before the server in the list, so removed after it has stopped (cleanups run in reverse).
    const containers = await prepareContainers()
    cleanups.push(containers.cleanup)

    const adminPassword = `E2e-${randomBytes(12).toString('base64url')}`
    const server = await startServer({
      logFile: path.join(ARTIFACTS_DIR, 'server.log'),
      env: {
        ...database.env,
        ...containers.env,
        WEB_DIR: webDir,
        PENNANT_ADMIN_PASSWORD: adminPassword,
        SMTP_HOST: '127.0.0.1',
        SMTP_PORT: String(mail.smtpPort),
        SMTP_SECURE: 'false',
        SMTP_FROM: 'Pennant <ctf@pennant.test>',
        SMTP_REJECT_UNAUTHORIZED: 'false',
        // The proof-of-work captcha, active only while a test turns the policy's useCaptcha on;
        // difficulty 12 keeps solving it in the browser well under a second.
        CAPTCHA_PROVIDER: 'HashPow',
        CAPTCHA_POW_DIFFICULTY: '12',
      },
    })
    cleanups.push(server.stop)

    process.env[ENV.baseUrl] = server.url
    process.env[ENV.mailboxUrl] = mail.url
    process.env[ENV.adminPassword] = adminPassword
    process.env[ENV.smtpPort] = String(mail.smtpPort)
    process.env[ENV.dataDir] = database.env.DATA_DIR ?? ''
    process.env[ENV.webDir] = webDir
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

/**
 * The web client as `npm start` serves it: built into web/dist when stale (with its compressed
 * copies; `npm test` builds it before the suites start), then copied to a directory of this
 * run's own, so a developer's later build of web/dist never replaces files mid-run.
 */
function buildWeb(): string {
  const started = Date.now()
  const build = spawnSync(
    process.execPath,
    [path.join(WEB_DIR, 'scripts/build.mjs'), '--if-stale', '--quiet'],
    {
      cwd: REPO_ROOT,
      encoding: 'utf8',
    },
  )
  if (build.status !== 0) throw new Error(`building the web client failed:\n${build.stdout}\n${build.stderr}`)
  const outDir = mkdtempSync(path.join(tmpdir(), 'pennant-e2e-web-'))
  cpSync(path.join(WEB_DIR, 'dist'), outDir, { recursive: true })
  console.log(`[e2e] web client ready (built when stale, then copied) in ${Date.now() - started} ms`)
  return outDir
}
