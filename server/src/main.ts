import { randomInt } from 'node:crypto'
import { buildApp } from './app.ts'
import { loadConfig } from './config/index.ts'
import { openDatabase } from './db/index.ts'
import { generatePassword } from './engine/password.ts'
import { closeInfra, createInfra } from './infra/index.ts'

/** The process entry: the only place that reads the environment and owns signals. */
async function main() {
  const config = loadConfig(process.env)
  const database = await openDatabase({
    url: config.databaseUrl,
    dataDir: config.dataDir,
    onIdleError: (err) => console.error('database connection lost (will reconnect):', err.message),
  })
  const infra = createInfra(config)
  const app = await buildApp({ config, database, infra })
  const { account, posts } = app.deps.services

  const created = await account.ensureAdmin(config.adminPassword, () => generatePassword(randomInt))
  if (created && !config.adminPassword) {
    // Printed once, at the start that created the account; it is not stored anywhere in clear.
    process.stdout.write(
      `\n  An administrator account was created.\n    user name: Admin\n    password:  ${created}\n  Change the password after signing in.\n\n`,
    )
  } else if (created) {
    app.log.info('created the Admin account with the password from PENNANT_ADMIN_PASSWORD')
  }
  await posts.ensureWelcome()
  const pending = await app.deps.services.judge.resume()
  if (pending) app.log.info({ pending }, 're-queued submissions left unjudged by the last run')

  let closing = false
  const shutdown = async (signal: string) => {
    if (closing) return
    closing = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => process.exit(1), 10_000)
    force.unref()
    await app.close()
    await closeInfra(infra)
    await database.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void shutdown('SIGINT'))
  process.on('SIGTERM', () => void shutdown('SIGTERM'))

  await app.listen({ port: config.port, host: config.host })
  app.log.info(`Pennant is serving on port ${config.port} (database: ${database.kind})`)
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
