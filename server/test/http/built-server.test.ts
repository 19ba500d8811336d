import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { cpSync, readFileSync, rmSync } from 'node:fs'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildApp } from '../../src/app.ts'
import { loadConfig } from '../../src/config/index.ts'
import { closeInfra, createInfra } from '../../src/infra/index.ts'
import { serverDir } from '../../src/paths.ts'
import { createTestDatabase } from '../helpers/database.ts'
import { exited, listeningPort, printed } from '../helpers/process.ts'

const run = promisify(execFile)
const repoRoot = path.resolve(serverDir, '..')

/**
 * Starts `<build>/main.js` as `npm start` does (`node dist/main.js`), on the embedded PGlite.
 * `env` adds or overrides variables (`PENNANT_ADMIN_PASSWORD: undefined`: a first start that
 * generates the password); `tty` runs it on a terminal of its own (`script`), as a person's
 * `npm start` in a terminal does.
 */
function startBuilt(
  build: string,
  dataDir: string,
  webDir: string,
  opts: { env?: NodeJS.ProcessEnv; tty?: boolean } = {},
) {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const key of ['DATABASE_URL', 'REDIS_URL', 'WEB_DIR', 'PUBLIC_URL', 'TRUST_PROXY', 'LOG_FORMAT'])
    delete env[key]
  Object.assign(env, {
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PENNANT_ADMIN_PASSWORD: 'Built-Adm1n',
    CONTAINER_BACKEND: 'none',
    LOG_LEVEL: 'info',
    WEB_DIR: webDir,
    ...opts.env,
  })
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete env[key]
  const main = path.join(build, 'main.js')
  if (opts.tty) {
    // `script` gives the command a pseudo-terminal; -e passes its exit code on.
    const command = `exec '${process.execPath}' '${main}'`
    return spawn('script', ['-qec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
  }
  return spawn(process.execPath, [main], { env, stdio: ['ignore', 'pipe', 'pipe'] })
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

  it('loads no optional part before its first line runs (Docker client, Redis, pg on PGlite, PGlite, images, hashing, mail)', () => {
    // The packages main.js reaches through static imports, its chunks included, whether imported
    // from node_modules or bundled into it: each of these
    // costs start-up time and memory, so each is imported where it is first needed (a Docker
    // client loaded through a shared helper cost ~25 MiB and ~0.2 s at every start).
    const loaded = new Set<string>()
    const seen = new Set<string>()
    const walk = (file: string) => {
      if (seen.has(file)) return
      seen.add(file)
      const text = readFileSync(file, 'utf8')
      for (const m of text.matchAll(
        /^(?:import|export)\s[^;]*?\sfrom\s*"([^"]+)";?$|^import\s*"([^"]+)";?$/gms,
      )) {
        const spec = (m[1] ?? m[2])!
        if (spec.startsWith('.')) walk(path.resolve(path.dirname(file), spec))
        else if (!spec.startsWith('node:')) loaded.add(spec)
      }
      // A bundled package's code is headed by esbuild's comment naming its file
      // (`// ../node_modules/pg/lib/index.js`): the package, and its folder for subpaths.
      for (const m of text.matchAll(/^\/\/ (?:\.\.\/)*node_modules\/((?:@[^/]+\/)?[^/]+)\/([^/\n]+)\//gm)) {
        loaded.add(m[1]!)
        loaded.add(`${m[1]}/${m[2]}`)
      }
    }
    walk(path.join(build, 'main.js'))
    expect(loaded).toContain('fastify')
    for (const lazy of [
      'dockerode',
      'ioredis',
      'pg',
      '@electric-sql/pglite',
      'drizzle-orm/pglite',
      'drizzle-orm/node-postgres',
      'sharp',
      '@node-rs/argon2',
      'nodemailer',
    ])
      expect(loaded, lazy).not.toContain(lazy)
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

  // A newcomer's `npm start`: what the terminal shows, and the first admin's password.
  describe('on a first start', () => {
    const started: ChildProcess[] = []
    const dirs: string[] = []
    afterAll(async () => {
      for (const c of started) c.kill('SIGKILL')
      for (const d of dirs) await rm(d, { recursive: true, force: true })
    })
    /** A server of its own (on a new DATA_DIR unless given one); resolves once it printed `until`. */
    async function firstStart(opts: Parameters<typeof startBuilt>[3], until: RegExp, dir?: string) {
      if (!dir) {
        dir = await mkdtemp(path.join(tmpdir(), 'pennant-first-'))
        dirs.push(dir)
      }
      const proc = startBuilt(build, dir, webDir, opts)
      started.push(proc)
      const out = { text: '' }
      const port = await listeningPort(proc, out)
      await printed(proc, out, until)
      return { proc, out, dir, base: `http://127.0.0.1:${port}` }
    }
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes
    const plain = (text: string) => text.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r/g, '')

    it('not on a terminal: JSON lines, none per request; the generated password last, in a file only its owner reads until it is changed', {
      // A new embedded database migrates first: over a minute on a busy 2-core machine.
      timeout: 240_000,
    }, async () => {
      const { proc, out, dir, base } = await firstStart(
        { env: { PENNANT_ADMIN_PASSWORD: undefined } },
        /└─+┘\n/,
      )
      for (let i = 0; i < 3; i++) expect((await fetch(`${base}/api/config`)).status).toBe(200)

      // The block comes after "ready", framed, and says where the password is kept.
      const text = out.text
      expect(text.indexOf('Pennant is ready at http://127.0.0.1:')).toBeGreaterThan(0)
      expect(text.indexOf('┌')).toBeGreaterThan(text.indexOf('Pennant is ready at'))
      // With PORT=0 the warning names the port the system picked, not 0.
      expect(text).toContain(`PUBLIC_URL is not set: mailed links point to ${base}.`)
      const password = /│ +password: +(\S+)/.exec(text)?.[1]
      expect(password).toBeTruthy()
      const file = path.join(dir, 'first-admin.txt')
      expect(text).toContain(file)
      expect((await stat(file)).mode & 0o777).toBe(0o600)
      expect(await readFile(file, 'utf8')).toContain(`password:  ${password}`)

      // Signing in and choosing a password removes the file.
      const login = await fetch(`${base}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userName: 'Admin', password }),
      })
      expect(login.status).toBe(200)
      const cookies = login.headers.getSetCookie().map((c) => c.split(';')[0]!)
      const xsrf = cookies.find((c) => c.startsWith('XSRF-TOKEN='))!.slice('XSRF-TOKEN='.length)
      const change = await fetch(`${base}/api/account/changepassword`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-xsrf-token': xsrf },
        body: JSON.stringify({ old: password, new: 'Ch0sen-by-me' }),
      })
      expect(change.status).toBe(200)
      await expect(stat(file)).rejects.toThrow(/ENOENT/)

      // Everything else it printed is one JSON object a line, and no line per request.
      proc.kill('SIGTERM')
      await exited(proc)
      const lines = out.text.split('\n').filter((l) => l.trim() && !/^ +[┌│└]/.test(l))
      for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow()
      expect(out.text).not.toContain('/api/config')
      expect(out.text).not.toMatch(/incoming request|request completed/)
      expect(out.text).toContain('"msg":"stopped"')
    })

    it('on a terminal: lines a person reads (JSON when LOG_FORMAT=json asks)', {
      timeout: 240_000,
    }, async () => {
      const pretty = await firstStart({ tty: true }, /Pennant is ready at/)
      expect(plain(pretty.out.text)).toMatch(
        /^\d\d:\d\d:\d\d INFO +Pennant is ready at http:\/\/127\.0\.0\.1:\d+ \(database: pglite\)$/m,
      )
      expect(pretty.out.text).not.toContain('{"level"')
      await fetch(`${pretty.base}/api/config`)
      // Ctrl-C on its terminal: the server stops cleanly, saying so in the same form.
      pretty.proc.stdin!.write('\x03')
      expect(await exited(pretty.proc)).toBe(0)
      expect(plain(pretty.out.text)).toMatch(/^\d\d:\d\d:\d\d INFO +stopped$/m)
      expect(pretty.out.text).not.toContain('/api/config')

      // Started again on the same data (a restart), asked for JSON.
      const json = await firstStart(
        { tty: true, env: { LOG_FORMAT: 'json' } },
        /Pennant is ready at/,
        pretty.dir,
      )
      expect(plain(json.out.text)).toMatch(/^\{"level":30,.*"msg":"Pennant is ready at /m)
      json.proc.stdin!.write('\x03')
      await exited(json.proc)
    })
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
