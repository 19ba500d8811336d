/**
 * `npm run lighthouse`: Lighthouse's mobile audit (simulated slow 4G and a 4× slower CPU, as the
 * tool does by default) of the pages a player meets first, against the real server on its
 * embedded defaults with the built client, in Debian's Chromium. Prints one row per page:
 * performance score, LCP, total blocking time, CLS and bytes transferred. Issue 12's targets:
 * performance ≥ 90, LCP ≤ 2.5 s, CLS ≤ 0.05.
 *   --runs 3   audits per page (the median is shown)
 *   --pages home,scoreboard   only these pages (default: all four)
 *   --tls       through Debian's nginx with HTTPS and HTTP/2 (a self-signed certificate), as a
 *               public site is served; without it the bare server answers over HTTP/1.1, where a
 *               phone gets six connections and the page's ~30 files queue on them
 *   --explain   prints, for each page's last audit, the simulated timeline its LCP came from
 *   --json DIR  also writes each audit's full report to DIR/<page>-<run>.json (where the time
 *               goes: `bootup-time`, `long-tasks`, `largest-contentful-paint-element`, ...) and
 *               the page load's trace to DIR/<page>-<run>.trace.json (DevTools opens it)
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import WebSocket from 'ws'
import { startNginx } from '../../server/test/scaleout/cluster.ts'
import { setUp } from './demo-world.ts'
import { lcpTimeline } from './lcp-timeline.ts'
import { waitFor } from './server-process.ts'
import { median } from './stats.ts'

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1]) || (args.includes('--runs') ? 1 : 3)
const jsonDir = args.includes('--json')
  ? path.resolve(args[args.indexOf('--json') + 1] ?? 'lighthouse-reports')
  : undefined
const only = args.includes('--pages') ? (args[args.indexOf('--pages') + 1] ?? '').split(',') : undefined
const tls = args.includes('--tls')
const explain = args.includes('--explain')
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const PORT = 18900 + Math.floor(Math.random() * 400)
/** The server itself (set-up talks to it directly). */
const serverBase = `http://127.0.0.1:${PORT}`
const ADMIN_PASSWORD = 'Lighthouse-Adm1n'
const say = (line: string) => process.stdout.write(`${line}\n`)

/**
 * Puts these cookies, and only these, in the browser's own jar (Lighthouse leaves cookies alone
 * between audits). Not a `Cookie` header per request: once the site sets a cookie of its own (the
 * XSRF token, on the first API answer) the browser sends its jar instead, and the signed-in pages
 * were measured signed out (the challenges page then sent the visitor to the game's page).
 */
async function useCookies(port: number, cookies: { name: string; value: string; url: string }[]) {
  const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
    webSocketDebuggerUrl: string
  }
  const socket = new WebSocket(version.webSocketDebuggerUrl)
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
  let id = 0
  const send = (method: string, params: object) =>
    new Promise<void>((resolve, reject) => {
      const mine = ++id
      socket.on('message', (raw) => {
        const answer = JSON.parse(String(raw)) as { id?: number; error?: { message: string } }
        if (answer.id !== mine) return
        if (answer.error) reject(new Error(`${method}: ${answer.error.message}`))
        else resolve()
      })
      socket.send(JSON.stringify({ id: mine, method, params }))
    })
  await send('Storage.clearCookies', {})
  if (cookies.length) await send('Storage.setCookies', { cookies })
  socket.close()
}

async function main() {
  say('building the web client if needed…')
  execFileSync('npm', ['run', '-s', 'ensure-built', '-w', 'web'], { cwd: root, stdio: 'inherit' })
  const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-lighthouse-'))
  // Node itself (not npx), so killing it at the end stops the server and nothing lingers.
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'server'),
    env: {
      ...process.env,
      PORT: String(PORT),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      PENNANT_ADMIN_PASSWORD: ADMIN_PASSWORD,
      CONTAINER_BACKEND: 'none',
      LOG_LEVEL: 'warn',
      DISABLE_RATE_LIMIT: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  })
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      ...(tls ? ['--ignore-certificate-errors'] : []),
    ],
  })
  let nginx: Awaited<ReturnType<typeof startNginx>> | null = null
  try {
    await waitFor(`${serverBase}/healthz`, server, 60)
    if (tls) nginx = await startNginx([PORT], undefined, true)
    /** Where the browser goes. */
    const base = nginx?.url ?? serverBase
    const { gameId, player } = await setUp(serverBase, ADMIN_PASSWORD)
    const pages = [
      { name: 'home', url: '/', signedIn: false },
      { name: 'login', url: '/account/login', signedIn: false },
      { name: 'challenges', url: `/games/${gameId}/challenges`, signedIn: true },
      { name: 'scoreboard', url: `/games/${gameId}/scoreboard`, signedIn: true },
    ].filter((page) => !only || only.includes(page.name))
    say(
      `Lighthouse ${runs}× per page, mobile (simulated slow 4G, 4× CPU slowdown), ${tls ? 'HTTPS with HTTP/2 through nginx' : 'HTTP/1.1 from the bare server'}; medians:`,
    )
    say('| page | performance | LCP | TBT | CLS | transferred |')
    say('|---|---|---|---|---|---|')
    const explained: string[] = []
    for (const page of pages) {
      let lastArtifacts: Record<string, unknown> | undefined
      const results: { perf: number; lcp: number; tbt: number; cls: number; bytes: number }[] = []
      await useCookies(
        chrome.port,
        page.signedIn ? [...player.cookies].map(([name, value]) => ({ name, value, url: base })) : [],
      )
      for (let i = 0; i < runs; i++) {
        const out = await lighthouse(
          base + page.url,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
          },
          undefined,
        )
        if (jsonDir) {
          await mkdir(jsonDir, { recursive: true })
          await writeFile(path.join(jsonDir, `${page.name}-${i + 1}.json`), out!.report as string)
          // The page load's own trace (unthrottled: what the simulation starts from), for DevTools.
          const trace = (out!.artifacts as { Trace?: unknown }).Trace
          if (trace)
            await writeFile(path.join(jsonDir, `${page.name}-${i + 1}.trace.json`), JSON.stringify(trace))
        }
        // A page that sent the browser elsewhere (signed out, not in the game) is not this page.
        if (new URL(out!.lhr.finalDisplayedUrl).pathname !== page.url)
          throw new Error(`${page.name}: ended on ${out!.lhr.finalDisplayedUrl}, not ${page.url}`)
        lastArtifacts = out!.artifacts as unknown as Record<string, unknown>
        const a = out!.lhr.audits
        results.push({
          perf: Math.round((out!.lhr.categories.performance!.score ?? 0) * 100),
          lcp: a['largest-contentful-paint']!.numericValue ?? 0,
          tbt: a['total-blocking-time']!.numericValue ?? 0,
          cls: a['cumulative-layout-shift']!.numericValue ?? 0,
          bytes: a['total-byte-weight']!.numericValue ?? 0,
        })
      }
      if (explain && lastArtifacts) explained.push(`${page.name}:`, ...(await lcpTimeline(lastArtifacts)))
      const m = (k: keyof (typeof results)[number]) => median(results.map((r) => r[k]))
      say(
        `| ${page.name} | ${m('perf')} | ${(m('lcp') / 1000).toFixed(2)} s | ${Math.round(m('tbt'))} ms | ${m('cls').toFixed(3)} | ${Math.round(m('bytes') / 1024)} KiB |`,
      )
    }
    for (const line of explained) say(line)
  } finally {
    chrome.kill()
    await nginx?.stop()
    server.kill()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
