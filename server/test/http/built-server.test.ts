import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, readFileSync, rmSync } from 'node:fs'
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
const repoRoot = path.resolve(serverDir, '..')

/** Resolves with the port once the server logs that it listens; rejects if it exits first. */
function listeningPort(child: ChildProcess, output: { text: string }): Promise<number> {
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString()
      const port = output.text.match(/Server listening at http:\/\/127\.0\.0\.1:(\d+)/)?.[1]
      if (port) resolve(Number(port))
    })
    child.stderr!.on('data', (chunk: Buffer) => {
      output.text += chunk.toString()
    })
    child.once('exit', (code) =>
      reject(new Error(`server exited (${code}) before listening: ${output.text}`)),
    )
  })
}

/** Starts `<build>/main.js` as `npm start` does (`node dist/main.js`), on the embedded PGlite. */
function startBuilt(build: string, dataDir: string, webDir: string) {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'WEB_DIR', 'PUBLIC_URL', 'TRUST_PROXY']) delete env[key]
  return spawn(process.execPath, [path.join(build, 'main.js')], {
    env: {
      ...env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PENNANT_ADMIN_PASSWORD: 'Built-Adm1n',
      CONTAINER_BACKEND: 'none',
      LOG_LEVEL: 'info',
      WEB_DIR: webDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

/** The process's exit code and everything it printed. */
function exitOf(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = ''
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()))
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()))
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, output })))
}

// `npm start` builds server/dist and web/dist and runs `node dist/main.js`, not these sources:
// this runs that output, so a file the build leaves out (a title file, the PGlite worker, the
// migrations, an asset) fails here rather than in production. The build goes to a folder of this
// run's own (inside server/, where node_modules is found), beside any dist/ a server runs from.
describe('the built server', () => {
  const build = path.join(serverDir, '.builds', `test-${process.pid}-${randomBytes(3).toString('hex')}`)
  const webDir = path.join(repoRoot, 'web', 'dist')
  let dataDir: string
  let child: ChildProcess | undefined
  const output = { text: '' }
  let base = ''

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-built-'))
    // As `npm start` does: the web client when stale (about a minute the first time), the server.
    await run('npm', ['run', '-s', 'ensure-built', '-w', 'web'], { cwd: repoRoot, maxBuffer: 16 << 20 })
    await run(process.execPath, [path.join(serverDir, 'scripts/build.mjs'), '--outdir', build], {
      cwd: serverDir,
    })
    child = startBuilt(build, dataDir, webDir)
    base = `http://127.0.0.1:${await listeningPort(child, output)}`
  }, 300_000)
  afterAll(async () => {
    child?.kill('SIGKILL')
    await rm(dataDir, { recursive: true, force: true })
    await rm(build, { recursive: true, force: true })
  })

  it('starts from its build, on PGlite in its worker thread, and answers /api/config', async () => {
    const res = await fetch(`${base}/api/config`)
    expect(res.status).toBe(200)
    expect(await res.json()).toMatchObject({ title: 'Pennant' })
    expect(output.text).toContain('(database: pglite)')
    // The migrations ran from the build: the admin account and the welcome post are in tables.
    const login = await fetch(`${base}/api/account/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ userName: 'Admin', password: 'Built-Adm1n' }),
    })
    expect(login.status).toBe(200)
    const posts = await fetch(`${base}/api/posts/latest`)
    expect(posts.status).toBe(200)
    expect(((await posts.json()) as unknown[]).length).toBeGreaterThan(0)
  })

  it('answers an error title in the request culture (zh-CN)', async () => {
    const zh = JSON.parse(readFileSync(path.join(serverDir, 'src/http/locales/zh-CN.json'), 'utf8'))
    const res = await fetch(`${base}/api/game/987654`, { headers: { 'accept-language': 'zh-CN' } })
    expect(res.status).toBe(404)
    expect(res.headers.get('content-language')).toBe('zh-CN')
    const body = (await res.json()) as { title: string }
    expect(body.title).toBe(zh.Game_NotFound)
    expect(body.title).not.toBe('Game not found')
  })

  it('serves its assets: the default favicon and the tunnel script', async () => {
    const favicon = await fetch(`${base}/favicon.webp`)
    expect(favicon.headers.get('content-type')).toBe('image/webp')
    const tunnel = await fetch(`${base}/api/ext/tunnel.mjs`)
    expect(tunnel.status).toBe(200)
    expect(await tunnel.text()).toBe(readFileSync(path.join(serverDir, 'assets/tunnel.mjs'), 'utf8'))
  })

  it('serves the built web client', async () => {
    const page = await fetch(`${base}/games`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const html = await page.text()
    const script = /<script[^>]+src="(\/[^"]+\.js)"/.exec(html)?.[1]
    expect(script).toBeTruthy()
    const asset = await fetch(`${base}${script}`)
    expect(asset.status).toBe(200)
    expect(asset.headers.get('content-type')).toMatch(/javascript/)
  })

  it('refuses to start, naming the file, when the build lacks one it reads', async () => {
    const broken = `${build}-broken`
    cpSync(build, broken, { recursive: true })
    try {
      rmSync(path.join(broken, 'locales', 'ja-JP.json'))
      const exited = exitOf(startBuilt(broken, dataDir, webDir))
      const { code, output: printed } = await exited
      expect(code).not.toBe(0)
      expect(printed).toContain('the server cannot start')
      expect(printed).toContain(path.join(broken, 'locales', 'ja-JP.json'))
      expect(printed).not.toContain('Server listening')
    } finally {
      rmSync(broken, { recursive: true, force: true })
    }
  })
})

// Production compiles each route's validators and serializers at its first request; here every
// one of them is compiled at once, so a schema that cannot compile fails a test, not a request.
describe('route schemas', () => {
  // Thousands of validators and serializers: seconds alone, far more beside an e2e run.
  it('all compile', { timeout: 120_000 }, async () => {
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
