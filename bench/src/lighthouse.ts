/**
 * `npm run lighthouse`: Lighthouse's mobile audit (simulated slow 4G and a 4× slower CPU, as the
 * tool does by default) of the pages a player meets first, against the real server on its
 * embedded defaults with the built client, in Debian's Chromium. Prints one row per page:
 * performance score, LCP, total blocking time, CLS and bytes transferred. Issue 12's targets:
 * performance ≥ 90, LCP ≤ 2.5 s, CLS ≤ 0.05.
 *   --runs 3   audits per page (the median is shown)
 */
import { execFileSync, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse from 'lighthouse'
import { waitFor } from './server-process.ts'

const args = process.argv.slice(2)
const runs = Number(args[args.indexOf('--runs') + 1]) || (args.includes('--runs') ? 1 : 3)
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
const PORT = 18900 + Math.floor(Math.random() * 400)
const base = `http://127.0.0.1:${PORT}`
const ADMIN_PASSWORD = 'Lighthouse-Adm1n'
const say = (line: string) => process.stdout.write(`${line}\n`)

/** A tiny cookie-keeping JSON client, as a browser tab would be. */
class Client {
  cookies = new Map<string, string>()
  async call(method: string, url: string, body?: unknown) {
    const res = await fetch(base + url, {
      method,
      headers: {
        'content-type': 'application/json',
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-xsrf-token': this.cookies.get('XSRF-TOKEN') ?? '',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair!.indexOf('=')
      this.cookies.set(pair!.slice(0, i), pair!.slice(i + 1))
    }
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`)
    return text ? JSON.parse(text) : undefined
  }
  header = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
}

/** A running game with posts, challenges and a player who has solved one. */
async function setUp() {
  const admin = new Client()
  await admin.call('GET', '/api/config')
  await admin.call('POST', '/api/account/login', { userName: 'Admin', password: ADMIN_PASSWORD })
  for (let i = 1; i <= 3; i++)
    await admin.call('POST', '/api/edit/posts', {
      title: `News ${i}`,
      summary: 'The **spring** contest opens on Friday; read the rules first.',
      content: '# Rules\n\nBe nice.',
      tags: ['news'],
    })
  const game = await admin.call('POST', '/api/edit/games', {
    title: 'Spring CTF',
    start: Date.now() - 3600_000,
    end: Date.now() + 7 * 86_400_000,
    summary: 'A week of puzzles',
    acceptWithoutReview: true,
  })
  const categories = ['Web', 'Crypto', 'Pwn', 'Misc', 'Reverse', 'Forensics']
  for (let i = 0; i < 12; i++) {
    const c = await admin.call('POST', `/api/edit/games/${game.id}/challenges`, {
      title: `Challenge ${i + 1}`,
      category: categories[i % categories.length],
    })
    await admin.call('POST', `/api/edit/games/${game.id}/challenges/${c.id}/flags`, [{ flag: `flag{${i}}` }])
    await admin.call('PUT', `/api/edit/games/${game.id}/challenges/${c.id}`, {
      isEnabled: true,
      content: 'Find it.',
    })
  }
  const player = new Client()
  await player.call('GET', '/api/config')
  await player.call('POST', '/api/account/register', {
    userName: 'player1',
    email: 'player1@example.org',
    password: 'Passw0rd!',
  })
  const team = await player.call('POST', '/api/team', { name: 'Night Owls' })
  await player.call('POST', `/api/game/${game.id}`, { teamId: team.id })
  const details = await player.call('GET', `/api/game/${game.id}/details`)
  const first = Object.values(details.challenges as Record<string, { id: number }[]>)[0]![0]!
  await player.call('POST', `/api/game/${game.id}/challenges/${first.id}`, { flag: 'flag{0}' })
  return { gameId: game.id as number, player }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

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
    chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  try {
    await waitFor(`${base}/healthz`, server, 60)
    const { gameId, player } = await setUp()
    const pages = [
      { name: 'home', url: '/', signedIn: false },
      { name: 'login', url: '/account/login', signedIn: false },
      { name: 'challenges', url: `/games/${gameId}/challenges`, signedIn: true },
      { name: 'scoreboard', url: `/games/${gameId}/scoreboard`, signedIn: true },
    ]
    say(`Lighthouse ${runs}× per page, mobile (simulated slow 4G, 4× CPU slowdown); medians:`)
    say('| page | performance | LCP | TBT | CLS | transferred |')
    say('|---|---|---|---|---|---|')
    for (const page of pages) {
      const results: { perf: number; lcp: number; tbt: number; cls: number; bytes: number }[] = []
      for (let i = 0; i < runs; i++) {
        const out = await lighthouse(
          base + page.url,
          {
            port: chrome.port,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance'],
            extraHeaders: page.signedIn ? { Cookie: player.header() } : undefined,
          },
          undefined,
        )
        const a = out!.lhr.audits
        results.push({
          perf: Math.round((out!.lhr.categories.performance!.score ?? 0) * 100),
          lcp: a['largest-contentful-paint']!.numericValue ?? 0,
          tbt: a['total-blocking-time']!.numericValue ?? 0,
          cls: a['cumulative-layout-shift']!.numericValue ?? 0,
          bytes: a['total-byte-weight']!.numericValue ?? 0,
        })
      }
      const m = (k: keyof (typeof results)[number]) => median(results.map((r) => r[k]))
      say(
        `| ${page.name} | ${m('perf')} | ${(m('lcp') / 1000).toFixed(2)} s | ${Math.round(m('tbt'))} ms | ${m('cls').toFixed(3)} | ${Math.round(m('bytes') / 1024)} KiB |`,
      )
    }
  } finally {
    chrome.kill()
    server.kill()
    await rm(dataDir, { recursive: true, force: true })
  }
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
