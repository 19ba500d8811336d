import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { type App, type AppDeps, buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { type AdjustableClock, createAdjustableClock } from '../../src/infra/clock/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import { createTestDatabase } from './database.ts'

export interface TestApp {
  app: App
  dataDir: string
  /** The PostgreSQL database of this app (unset on PGlite), for a second server process. */
  databaseUrl?: string
  /** The app's clock: `advance` moves its games, freezes, containers and jobs past a wait. */
  clock: AdjustableClock
  /** Statements the app has sent to its database so far. */
  queries(): number
  close(): Promise<void>
}

/**
 * The real application on a fresh database and a temporary data folder. `env` takes the same
 * variables as production (e.g. SMTP_HOST, CAPTCHA_PROVIDER); `deps` what only tests change
 * (e.g. quicker webhook retries).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  deps: Pick<AppDeps, 'webhookTimings' | 'testClock'> = {},
  /** Where its database is: see `createTestDatabase` (a fresh one on TEST_DATABASE_URL by default). */
  database: Parameters<typeof createTestDatabase>[0] = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-test-'))
  // No web client unless a test asks for one: answers must not depend on whether web/dist was built.
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web-client'),
    // No containers unless a test asks for them (CONTAINER_BACKEND=docker).
    CONTAINER_BACKEND: 'none',
    ...env,
  })
  const db = await createTestDatabase(database)
  const infra = await createInfra(config)
  const clock = deps.testClock ?? createAdjustableClock()
  const app = await buildApp({ config, database: db, infra, logger: false, clock, ...deps })
  await app.ready()
  return {
    app,
    clock,
    dataDir,
    databaseUrl: db.url,
    queries: db.queries,
    async close() {
      await app.close()
      await closeInfra(infra)
      await db.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
