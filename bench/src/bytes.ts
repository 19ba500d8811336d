/**
 * `npm run bench:bytes`: bytes on the wire.
 * 1. The scoreboard at 1 000 and 6 000 teams (30 challenges, 10 solves per team, seeded on the
 *    machine's PostgreSQL): bytes sent plain, gzip and Brotli by the running server, how long the
 *    first compressed read of a version waits and a later one takes, and what each Brotli
 *    quality would cost on that board (CPU time in this process), to choose the board's quality.
 * 2. The first load of the main screens (home, login, challenges, scoreboard) in Debian's
 *    Chromium with an empty cache: the bytes the browser received (encoded body and headers,
 *    from the DevTools protocol) and the number of requests, against the server on its embedded
 *    defaults with the built web client.
 *   --teams 1000,6000   boards to measure;  --skip-boards / --skip-pages
 * The database server comes from BENCH_DATABASE_URL (default: the machine's PostgreSQL).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { get } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import pg from 'pg'
import { chromium } from 'playwright-core'
import { openDatabase } from '../../server/src/db/index.ts'
import { setUp } from './demo-world.ts'
import { seed } from './seed.ts'
import { serverEnv, waitFor } from './server-process.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1]! : fallback
}
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const PORT = 19300 + Math.floor(Math.random() * 400)
const base = `http://127.0.0.1:${PORT}`
const ADMIN_PASSWORD = 'Bytes-Adm1n'

const say = (line: string) => process.stdout.write(`${line}\n`)
const kib = (n: number) => `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KiB`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** The built server (what `npm start` runs) on `env`, stopped by the returned function. */
async function startServer(
  env: Record<string, string>,
): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [path.join(root, 'server/dist/main.js')], {
    cwd: root,
    env: serverEnv(PORT, ADMIN_PASSWORD, { CONTAINER_BACKEND: 'none', DISABLE_RATE_LIMIT: 'true', ...env }),
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  await waitFor(`${base}/healthz`, child, 60)
  return {
    child,
    stop: async () => {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise((r) => child.once('exit', r))
    },
  }
}

/** One read of the board with `encoding`: its bytes on the wire and how long it took. */
async function read(url: string, encoding: string) {
  const started = performance.now()
  // node:http, not fetch: fetch would decode the body and hide what was sent.
  const { status, headers, body } = await new Promise<{
    status: number
    headers: Record<string, unknown>
    body: Buffer
  }>((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      )
      res.on('error', reject)
    }).on('error', reject)
  })
  if (status !== 200) throw new Error(`${url}: ${status}`)
  return {
    bytes: body.length,
    coding: headers['content-encoding'] ?? 'none',
    ms: performance.now() - started,
    body,
  }
}

/** CPU milliseconds `fn` takes in this process (median of three). */
function cpuMs(fn: () => unknown): number {
  const times: number[] = []
  for (let i = 0; i < 3; i++) {
    const before = process.cpuUsage()
    fn()
    const used = process.cpuUsage(before)
    times.push((used.user + used.system) / 1000)
  }
  return times.sort((a, b) => a - b)[1]!
}

async function boards(teamCounts: number[]) {
  say('Scoreboard bytes (30 challenges, 10 solves per team):')
  say(
    '| teams | plain | gzip | br | first br read of a version | later br read | br: q4 / q5 / q6 / q7, size and CPU ms | gzip 6, CPU ms |',
  )
  say('|---|---|---|---|---|---|---|---|')
  for (const teams of teamCounts) {
    const dbName = `pennant_bench_${Date.now().toString(36)}`
    const admin = new pg.Client({ connectionString: serverUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${dbName}`)
    const url = new URL(serverUrl)
    url.pathname = `/${dbName}`
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-bytes-'))
    let server: Awaited<ReturnType<typeof startServer>> | undefined
    try {
      const migrated = await openDatabase({ url: url.toString(), dataDir: null })
      await migrated.close()
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      const { gameId } = await seed(client, { teams, challenges: 30, solves: teams * 10 })
      await client.end()
      server = await startServer({ DATABASE_URL: url.toString(), DATA_DIR: dataDir })
      const board = `${base}/api/game/${gameId}/scoreboard`
      const plain = await read(board, 'identity')
      // The first Brotli read of this version waits for its compression; the next ones do not.
      const firstBr = await read(board, 'br')
      const laterBr = await read(board, 'br')
      const gz = await read(board, 'gzip')
      if (firstBr.coding !== 'br' || gz.coding !== 'gzip') throw new Error('the board was not compressed')
      const qualities = [4, 5, 6, 7].map((q) => {
        const params = {
          [constants.BROTLI_PARAM_QUALITY]: q,
          [constants.BROTLI_PARAM_SIZE_HINT]: plain.body.length,
          [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
        }
        const size = brotliCompressSync(plain.body, { params }).length
        return `${kib(size)} ${cpuMs(() => brotliCompressSync(plain.body, { params })).toFixed(0)}`
      })
      const gzipMs = cpuMs(() => gzipSync(plain.body, { level: 6 }))
      say(
        `| ${teams} | ${kib(plain.bytes)} | ${kib(gz.bytes)} | ${kib(firstBr.bytes)} | ${firstBr.ms.toFixed(0)} ms | ${laterBr.ms.toFixed(1)} ms | ${qualities.join(' / ')} | ${gzipMs.toFixed(0)} |`,
      )
    } finally {
      await server?.stop()
      await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`)
      await admin.end()
      await rm(dataDir, { recursive: true, force: true })
    }
  }
}

async function pages() {
  say('building the web client if needed…')
  execFileSync('npm', ['run', '-s', 'ensure-built', '-w', 'web'], { cwd: root, stdio: 'inherit' })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-bytes-'))
  const server = await startServer({ DATABASE_URL: '', DATA_DIR: dataDir })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    const { gameId, player } = await setUp(base, ADMIN_PASSWORD)
    const list = [
      { name: 'home', url: '/', signedIn: false },
      { name: 'login', url: '/account/login', signedIn: false },
      { name: 'challenges', url: `/games/${gameId}/challenges`, signedIn: true },
      { name: 'scoreboard', url: `/games/${gameId}/scoreboard`, signedIn: true },
    ]
    say('')
    say('First load in Chromium, empty cache (bytes received: encoded bodies and headers):')
    say('| page | received | requests | of which API: received (decoded) |')
    say('|---|---|---|---|')
    for (const page of list) {
      // A fresh context per page: nothing cached, only the player's cookies where signed in.
      const context = await browser.newContext()
      if (page.signedIn)
        await context.addCookies([...player.cookies].map(([name, value]) => ({ name, value, url: base })))
      const tab = await context.newPage()
      const cdp = await context.newCDPSession(tab)
      await cdp.send('Network.enable')
      const urls = new Map<string, string>()
      const decoded = new Map<string, number>()
      let received = 0
      let requests = 0
      let apiReceived = 0
      let apiDecoded = 0
      cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, e.response.url))
      cdp.on('Network.dataReceived', (e) =>
        decoded.set(e.requestId, (decoded.get(e.requestId) ?? 0) + e.dataLength),
      )
      cdp.on('Network.loadingFinished', (e) => {
        received += e.encodedDataLength
        requests++
        if (new URL(urls.get(e.requestId) ?? base).pathname.startsWith('/api/')) {
          apiReceived += e.encodedDataLength
          apiDecoded += decoded.get(e.requestId) ?? 0
        }
      })
      await tab.goto(base + page.url, { waitUntil: 'networkidle' })
      // Late requests (string files, lazy chunks) after the network went quiet once.
      await sleep(500)
      await context.close()
      say(`| ${page.name} | ${kib(received)} | ${requests} | ${kib(apiReceived)} (${kib(apiDecoded)}) |`)
    }
  } finally {
    await browser.close()
    await server.stop()
    await rm(dataDir, { recursive: true, force: true })
  }
}

async function main() {
  execFileSync('npm', ['run', '-s', 'ensure-built', '-w', 'server'], { cwd: root, stdio: 'inherit' })
  if (!args.includes('--skip-boards')) await boards(opt('teams', '1000,6000').split(',').map(Number))
  if (!args.includes('--skip-pages')) await pages()
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
