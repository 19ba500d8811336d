// First: keeps the young generation small while everything else loads (see there).
import './start-up-heap.ts'
import { randomInt } from 'node:crypto'
import type { AddressInfo } from 'node:net'
import { buildApp } from './app.ts'
import { loadConfig } from './config/index.ts'
import { openDatabase } from './db/index.ts'
import { generatePassword } from './engine/password.ts'
import { createAdjustableClock } from './infra/clock/index.ts'
import { closeInfra, createInfra } from './infra/index.ts'
import { createLogger, resolveLogFormat, writeRaw } from './infra/logger.ts'
import { secureDataDir } from './infra/storage/data-dir.ts'
import { startJobs } from './jobs/index.ts'
import { firstAdminBanner } from './modules/account/first-admin.ts'
import { checkRuntimeFiles } from './runtime-files.ts'
import { drainAndClose, trackSockets } from './shutdown.ts'
import { holdYoungGeneration, startedUp } from './start-up-heap.ts'

/** The process entry: the only place that reads the environment and owns signals. */
async function main() {
  // A build or an image that left out a file the server reads stops here, saying which.
  checkRuntimeFiles()
  const config = loadConfig(process.env)
  const logger = createLogger(config.logLevel, resolveLogFormat(config.logFormat, !!process.stdout.isTTY))
  // Fault injection for tests and rehearsals: off unless asked for, never in a real deployment.
  const faults = process.env.PENNANT_FAULT_INJECTION === '1'
  // The end-to-end suite moves the server's clock forward instead of waiting (same rule: tests only).
  const testClock = process.env.PENNANT_TEST_CLOCK === '1' ? createAdjustableClock() : undefined
  if (testClock)
    logger.warn("PENNANT_TEST_CLOCK is on: admins can move this server's clock forward (tests only)")
  // Before anything writes there: DATA_DIR holds the database, uploads and captures.
  const narrowed = await secureDataDir(config.dataDir, (msg) => logger.warn(msg))
  if (narrowed) logger.info(`made ${narrowed} files and folders under DATA_DIR readable by this user only`)
  // Independent waits (migrations; asking the Docker engine whether it answers) overlap.
  const [database, infra] = await Promise.all([
    openDatabase({
      url: config.databaseUrl,
      dataDir: config.dataDir,
      onIdleError: (err) => logger.error({ err }, 'database connection lost (will reconnect)'),
      pglite: {
        faults,
        onCrash: (err) =>
          logger.error({ err }, 'the PGlite thread was lost; restarting it on the same files'),
        onRestart: (info) => logger.warn(info, 'the PGlite thread was restarted and serves again'),
        // Starting a thread resets V8's flags: the young generation is held again.
        onThreadOnline: holdYoungGeneration,
        onDiscarded: (info) =>
          logger.warn(info, 'an answer of the PGlite thread for an earlier statement was thrown away'),
        // Never half alive: without a working database the process ends, for its supervisor to start again.
        onFatal: (err) => {
          logger.fatal({ err }, 'the embedded database cannot be restarted; exiting')
          process.exit(70)
        },
      },
    }),
    createInfra(config, {
      info: (msg) => logger.info(msg),
      warn: (msg) => logger.warn(msg),
    }),
  ])
  holdYoungGeneration()
  const app = await buildApp({ config, database, infra, loggerInstance: logger, testClock })
  const { account, posts, scoreboard } = app.deps.services
  // Not waited for: the boards of running games load while the routes are registered.
  const warmed = scoreboard
    .warm()
    .catch((err: unknown) => app.log.warn({ err }, 'the boards of running games could not be loaded ahead'))

  const created = await account.ensureAdmin(config.adminPassword, () => generatePassword(randomInt))
  // A generated password is kept in a file until it is changed, and shown once the server is up.
  if (created && !config.adminPassword) await app.deps.services.firstAdmin.write(created)
  else if (created) app.log.info('created the Admin account with the password from PENNANT_ADMIN_PASSWORD')
  await posts.ensureWelcome()
  const pending = await app.deps.services.judge.resume()
  if (pending) app.log.info({ pending }, 're-queued submissions left unjudged by the last run')
  if (infra.containers) {
    const c = config.containers
    app.log.info(`container entries use the host ${c.publicHost} (from ${c.publicHostFrom})`)
    // Not waited for: starts go one at a time until the engine has said how many CPUs it has.
    void app.deps.services.containerRuntime.startConcurrency().then(
      ({ starts, from }) => app.log.info(`container starts go to the engine ${starts} at a time (${from})`),
      (err: unknown) =>
        app.log.warn({ err }, 'the container engine did not answer; starts go one at a time until it does'),
    )
    // With several servers, one reconciles (the others could take its starts for strays).
    if (await infra.leases.hold('container reconcile'))
      await app.deps.services.containerRuntime
        .reconcile()
        .catch((err: unknown) => app.log.warn({ err }, 'container reconcile failed'))
  }
  const jobs = startJobs({
    services: app.deps.services,
    config,
    database,
    leases: infra.leases,
    log: app.log,
    clock: app.deps.clock,
  })

  const sockets = trackSockets(app)
  let closing = false
  // SIGTERM (docker stop, Kubernetes, systemd) and SIGINT (Ctrl-C): drain, then close. Repeats
  // are ignored (Ctrl-C under npm delivers SIGINT twice: from the terminal and from npm).
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    const { shutdownDelayMs, shutdownTimeoutMs } = config.ops
    app.log.info({ signal, delayMs: shutdownDelayMs, timeoutMs: shutdownTimeoutMs }, 'shutting down')
    // Whatever hangs (a hook, the database), the process still ends.
    const force = setTimeout(
      () => {
        app.log.error('shutdown did not finish in time; exiting')
        process.exit(1)
      },
      shutdownDelayMs + shutdownTimeoutMs + 15_000,
    )
    force.unref()
    jobs.stop()
    try {
      const clean = await drainAndClose(app, sockets, {
        delayMs: shutdownDelayMs,
        timeoutMs: shutdownTimeoutMs,
      })
      await closeInfra(infra)
      await database.close()
      app.log.info(clean ? 'stopped' : 'stopped (some requests were cut at the deadline)')
      process.exit(0)
    } catch (err) {
      app.log.error({ err }, 'shutdown failed')
      process.exit(1)
    }
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  // SIGUSR2 with PENNANT_FAULT_INJECTION=1: the PGlite worker thread is killed, as a crash would;
  // the server restarts it by itself (docs/developers/embedded-database.md).
  const { pglite } = database
  if (faults && pglite) {
    process.on('SIGUSR2', () => {
      app.log.warn('SIGUSR2: killing the PGlite thread (fault injection)')
      pglite.kill().catch((err: unknown) => app.log.error({ err }, 'fault injection: kill failed'))
    })
    app.log.warn('fault injection is on: SIGUSR2 kills the PGlite thread')
  }

  await app.listen({ port: config.port, host: config.host })
  const { port } = app.server.address() as AddressInfo
  // PORT=0 lets the system pick the port: mailed links and the banner name the one it picked.
  config.localUrl = config.localUrl.replace(/:0$/, `:${port}`)
  const site = config.publicUrl ?? config.localUrl
  if (!config.publicUrl)
    app.log.warn(
      `PUBLIC_URL is not set: mailed links point to ${config.localUrl}${config.publicHosts.length ? ` (or one of PUBLIC_HOSTS when the request names it)` : ''}. Set PUBLIC_URL in production.`,
    )
  app.log.info(`Pennant is ready at ${site} (database: ${database.kind})`)
  void warmed.then(startedUp)
  // Last, after "ready", so it does not scroll away behind the start's own lines.
  if (created && !config.adminPassword)
    writeRaw(logger, firstAdminBanner(created, `${site}/account/login`, app.deps.services.firstAdmin.path))
  // In the background: a probe container checks that challenge containers cannot reach this
  // host (the server's own port included); it warns when it cannot say so.
  void infra.containers?.isolation
    .verify(port)
    .catch((err: unknown) => app.log.warn({ err }, 'the container isolation check failed'))
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
