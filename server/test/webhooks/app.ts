import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import type { WebhookTimings } from '../../src/modules/webhooks/webhook-queue.ts'
import type { TestApp } from '../helpers/app.ts'
import { createTestDatabase } from '../helpers/database.ts'

/** The real application, as `createTestApp` builds it, with quicker webhook retries. */
export async function createWebhookTestApp(
  timings: Partial<WebhookTimings>,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-test-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIR: path.join(dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
    ...env,
  })
  const database = await createTestDatabase()
  const infra = await createInfra(config)
  const app = await buildApp({ config, database, infra, logger: false, webhookTimings: timings })
  await app.ready()
  return {
    app,
    dataDir,
    databaseUrl: database.url,
    queries: database.queries,
    async close() {
      await app.close()
      await closeInfra(infra)
      await database.close()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}
