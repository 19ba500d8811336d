/**
 * Prints the OpenAPI document, built from the route schemas, without starting a server.
 * The web client generates its API types from this output: `npm run openapi -w server > file`.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config/index.ts'
import { openDatabase } from '../src/db/index.ts'
import { closeInfra, createInfra } from '../src/infra/index.ts'

const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-openapi-'))
const config = loadConfig({ DATA_DIR: dataDir, CONTAINER_BACKEND: 'none' })
const database = await openDatabase({ dataDir: null })
const infra = await createInfra(config)
const app = await buildApp({ config, database, infra, logger: false })
await app.ready()
process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`)
await app.close()
await closeInfra(infra)
await database.close()
await rm(dataDir, { recursive: true, force: true })
