import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import { serverDir } from '../../src/paths.ts'
import { createTestDatabase } from '../helpers/database.ts'

const run = promisify(execFile)

/** Resolves with the port once the server logs that it listens; rejects if it exits first. */
function listeningPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let seen = ''
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString()
      const port = seen.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)?.[1]
      if (port) resolve(Number(port))
    })
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before listening: ${seen}`)))
  })
}

// `npm start` runs the build in server/dist, not these sources: this proves that output starts.
describe('the built server', () => {
  let dataDir: string
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined
  let child: ChildProcess | undefined

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-built-'))
    // On PostgreSQL a database of its own; otherwise the built server's PGlite in dataDir.
    if (process.env.TEST_DATABASE_URL) database = await createTestDatabase()
  })
  afterAll(async () => {
    child?.kill('SIGKILL')
    await database?.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it('builds, starts from server/dist and answers /api/config', { timeout: 120_000 }, async () => {
    await run(process.execPath, [path.join(serverDir, 'scripts/build.mjs')], { cwd: serverDir })
    child = spawn(process.execPath, [path.join(serverDir, 'dist/main.js')], {
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: database?.url ?? '',
        PENNANT_ADMIN_PASSWORD: 'Built-Adm1n',
        CONTAINER_BACKEND: 'none',
        LOG_LEVEL: 'info',
        WEB_DIR: path.join(dataDir, 'no-web-client'),
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    const port = await listeningPort(child)
    const res = await fetch(`http://127.0.0.1:${port}/api/config`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ title: 'Pennant' })
    // Its default favicon is read from the server's assets, found from the build's location.
    expect((await fetch(`http://127.0.0.1:${port}/favicon.webp`)).headers.get('content-type')).toBe(
      'image/webp',
    )
  })
})

// Production compiles each route's validators and serializers at its first request; here every
// one of them is compiled at once, so a schema that cannot compile fails a test, not a request.
describe('route schemas', () => {
  it('all compile', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pennant-schemas-'))
    const config = loadConfig({ DATA_DIR: dir, LOG_LEVEL: 'silent', CONTAINER_BACKEND: 'none' })
    const db = await createTestDatabase()
    const infra = await createInfra(config)
    try {
      const app = await buildApp({ config, database: db, infra, logger: false, compileSchemasEagerly: true })
      await app.ready()
      await app.close()
    } finally {
      await closeInfra(infra)
      await db.close()
      await rm(dir, { recursive: true, force: true })
    }
  })
})
