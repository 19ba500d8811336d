import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Writable } from 'node:stream'
import pino from 'pino'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type App, buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { closeInfra, createInfra, type Infra } from '../../src/infra/index.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { listen, openSocket, readAll } from '../helpers/ws.ts'

/** The server's log lines, as JSON objects. */
const lines: Record<string, unknown>[] = []
let app: App
let infra: Infra
let database: Awaited<ReturnType<typeof createTestDatabase>>
let dataDir: string
let base: string

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-frame-'))
  const config = loadConfig({
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    WEB_DIR: path.join(dataDir, 'no-web-client'),
    CONTAINER_BACKEND: 'none',
  })
  const sink = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l))
      done()
    },
  })
  database = await createTestDatabase()
  infra = await createInfra(config)
  app = await buildApp({ config, database, infra, loggerInstance: pino({ level: 'info' }, sink) })
  base = await listen(app)
})
afterAll(async () => {
  await app.close()
  await closeInfra(infra)
  await database.close()
  await rm(dataDir, { recursive: true, force: true })
})

describe('a hub frame over the size limit', () => {
  it('closes the connection and logs one warning without a stack, not an error', async () => {
    const ws = await openSocket(`${base}/hub/user`)
    const closed = readAll(ws)
    ws.send('x'.repeat(2 * 1024 * 1024))
    const { code } = await closed
    expect(code).not.toBe(1000)
    const mine = lines.filter((l) => JSON.stringify(l).includes('payload'))
    expect(mine.length).toBe(1)
    expect(mine[0]!.level).toBe(40)
    expect(JSON.stringify(mine[0])).not.toContain('stack')
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([])
  })
})
