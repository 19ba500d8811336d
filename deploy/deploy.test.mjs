// The deployment files, checked for real (`npm run test:deploy`; not part of `npm test`): builds
// the base images from Debian's packages (deploy/base-images.sh), Pennant's image
// (deploy/Dockerfile), brings deploy/compose.yaml up (PostgreSQL, Redis, two servers, nginx),
// then, only through nginx on 127.0.0.1: signs in, sets up a game, plays a solve, connects a
// live-update client, stops one server while requests keep coming, and tears everything down.
// Needs root, Docker, debootstrap and docker-compose (or the `docker compose` plugin).
// DEPLOY_TEST_PORT (9280) is where nginx listens; DEPLOY_TEST_KEEP=1 leaves it all running.
import assert from 'node:assert/strict'
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import WebSocket from 'ws'

const deployDir = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(deployDir, '..')
const port = Number(process.env.DEPLOY_TEST_PORT ?? 9280)
const base = `http://127.0.0.1:${port}`
const project = 'pennant-deploy-test'
const image = 'pennant:deploy-test'
const RS = '\x1e'
const started = Date.now()
const secs = (ms) => `${(ms / 1000).toFixed(1)} s`
// real wait: the deployment's real containers, requests paced around a real stop
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

let passed = 0
let failed = 0
async function check(name, fn) {
  const t0 = Date.now()
  try {
    await fn()
    passed++
    console.log(`  ok    ${name} (${secs(Date.now() - t0)})`)
  } catch (err) {
    failed++
    console.log(
      `  FAIL  ${name}\n        ${String(err?.stack ?? err)
        .split('\n')
        .join('\n        ')}`,
    )
  }
}

function run(cmd, args, opts = {}) {
  const res = spawnSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20, ...opts })
  if (res.status !== 0 && !opts.allowFail)
    throw new Error(`${cmd} ${args.join(' ')} failed (${res.status}):\n${res.stdout}\n${res.stderr}`)
  return res
}

// The compose plugin where there is one, else Debian's docker-compose.
const compose = (() => {
  if (spawnSync('docker', ['compose', 'version'], { encoding: 'utf8' }).status === 0)
    return ['docker', 'compose']
  if (spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0) return ['docker-compose']
  throw new Error(
    'Neither `docker compose` nor `docker-compose` is installed (apt-get install docker-compose)',
  )
})()

const adminPassword = `Adm1n-${randomBytes(6).toString('hex')}`
const env = {
  ...process.env,
  PENNANT_IMAGE: image,
  POSTGRES_PASSWORD: randomBytes(12).toString('hex'),
  PENNANT_ADMIN_PASSWORD: adminPassword,
  METRICS_TOKEN: randomBytes(16).toString('hex'),
  PENNANT_BIND: '127.0.0.1',
  PENNANT_PORT: String(port),
  PUBLIC_URL: base,
}
const composeArgs = (args) => [
  ...compose.slice(1),
  '-p',
  project,
  '-f',
  path.join(deployDir, 'compose.yaml'),
  ...args,
]
/** The same, without blocking this process (requests keep going while it runs). */
const dcAsync = (...args) => promisify(execFile)(compose[0], composeArgs(args), { cwd: root, env })
const dc = (...args) =>
  run(compose[0], [...compose.slice(1), '-p', project, '-f', path.join(deployDir, 'compose.yaml'), ...args], {
    env,
  })

/** A browser-like client: keeps cookies and echoes the XSRF token, as the web client does. */
class Client {
  cookies = new Map()
  async req(method, url, body) {
    const headers = {}
    if (this.cookies.size) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
    const xsrf = this.cookies.get('XSRF-TOKEN')
    if (xsrf) headers['x-xsrf-token'] = xsrf
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await fetch(base + url, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(';')
      const i = pair.indexOf('=')
      const value = pair.slice(i + 1)
      if (value) this.cookies.set(pair.slice(0, i), value)
      else this.cookies.delete(pair.slice(0, i))
    }
    const text = await res.text()
    let json
    try {
      json = text ? JSON.parse(text) : undefined
    } catch {
      json = undefined
    }
    return { status: res.status, json, text, headers: res.headers }
  }
  get = (url) => this.req('GET', url)
  post = (url, body) => this.req('POST', url, body)
  put = (url, body) => this.req('PUT', url, body)
}

async function ok(promise, what) {
  const res = await promise
  assert.equal(res.status, 200, `${what}: ${res.status} ${res.text}`)
  return res
}

/** Opens a hub connection through the proxy and completes the SignalR handshake. */
async function hubClient(hubPath) {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${hubPath}`)
  const frames = []
  ws.on('message', (d) => frames.push(d.toString()))
  await new Promise((resolve, reject) => {
    ws.once('open', resolve)
    ws.once('error', reject)
  })
  ws.send(`{"protocol":"json","version":1}${RS}`)
  return { ws, frames }
}

async function until(what, fn, timeoutMs) {
  const deadline = Date.now() + timeoutMs
  let last
  while (Date.now() < deadline) {
    try {
      const v = await fn()
      if (v) return v
    } catch (err) {
      last = err
    }
    // real wait: polling the stack as it comes up
    await sleep(250)
  }
  throw new Error(`${what}: not within ${secs(timeoutMs)}${last ? ` (${last.message})` : ''}`)
}

const timings = {}
async function main() {
  console.log(`deploy test: ${compose.join(' ')}, nginx on ${base}`)

  let t0 = Date.now()
  execFileSync('bash', [path.join(deployDir, 'base-images.sh')], { stdio: 'inherit' })
  timings.baseImages = Date.now() - t0

  // Behind a TLS-intercepting proxy (as on the machine these tests were written on) the build
  // needs its CA to reach the npm registry: the system's extra CAs are passed along.
  t0 = Date.now()
  const caDir = '/usr/local/share/ca-certificates'
  const extraCa = existsSync(caDir)
    ? readdirSync(caDir)
        .filter((f) => f.endsWith('.crt'))
        .map((f) => readFileSync(path.join(caDir, f), 'utf8'))
        .join('\n')
    : ''
  const buildArgs = extraCa ? ['--build-arg', `BUILD_CA_CERTS=${extraCa}`] : []
  console.log(`building ${image} (deploy/Dockerfile)…`)
  run('docker', ['build', '-q', '-f', 'deploy/Dockerfile', ...buildArgs, '-t', image, '.'])
  timings.build = Date.now() - t0
  const inspect = JSON.parse(run('docker', ['image', 'inspect', image]).stdout)[0]
  const sizeMb = inspect.Size / 1e6
  console.log(`image ${image}: ${sizeMb.toFixed(0)} MB`)

  t0 = Date.now()
  dc('down', '-v', '--remove-orphans')
  dc('up', '-d', '--no-build')
  await until(
    'the site answers through nginx',
    async () => (await fetch(`${base}/healthz/ready`)).ok,
    180_000,
  )
  timings.up = Date.now() - t0
  console.log(`compose up: ${secs(timings.up)}`)

  const container = (service) => dc('ps', '-q', service).stdout.trim()

  await check('the image runs as an unprivileged user, with the web client inside', async () => {
    assert.equal(inspect.Config.User, 'pennant')
    const uid = run('docker', ['exec', container('pennant-1'), 'id', '-u']).stdout.trim()
    assert.notEqual(uid, '0')
    const page = await fetch(`${base}/`)
    assert.equal(page.status, 200)
    assert.match(page.headers.get('content-type') ?? '', /text\/html/)
    assert.match(await page.text(), /<div id="root"/)
  })

  await check(
    'both servers report healthy to Docker, and /metrics is not served through the site',
    async () => {
      for (const s of ['pennant-1', 'pennant-2']) {
        const state = run('docker', ['inspect', '-f', '{{.State.Health.Status}}', container(s)]).stdout.trim()
        assert.equal(state, 'healthy', s)
      }
      assert.equal((await fetch(`${base}/metrics`)).status, 404)
      // Scraped on the compose network with the bearer token (here from inside the container).
      const scrape = run('docker', [
        'exec',
        container('pennant-2'),
        'node',
        '-e',
        `fetch('http://127.0.0.1:8080/metrics',{headers:{authorization:'Bearer ${env.METRICS_TOKEN}'}}).then(async r=>{console.log(r.status);console.log(await r.text())})`,
      ]).stdout
      assert.match(scrape, /^200\n/)
      assert.match(scrape, /pennant_db_pool_connections\{state="max"\} 32/)
    },
  )

  const admin = new Client()
  const player = new Client()
  let gameId
  let challengeId
  await check('an admin signs in through the proxy and sets up a running game', async () => {
    await ok(admin.post('/api/account/login', { userName: 'Admin', password: adminPassword }), 'login')
    await ok(admin.get('/api/account/profile'), 'profile')
    const hour = 3600_000
    const game = await ok(
      admin.post('/api/edit/games', {
        title: 'Deploy check',
        start: Date.now() - hour,
        end: Date.now() + 24 * hour,
      }),
      'create game',
    )
    gameId = game.json.id
    const c = await ok(
      admin.post(`/api/edit/games/${gameId}/challenges`, { title: 'Through the proxy', category: 'Web' }),
      'create challenge',
    )
    challengeId = c.json.id
    await ok(
      admin.post(`/api/edit/games/${gameId}/challenges/${challengeId}/flags`, [{ flag: 'flag{deployed}' }]),
      'add flag',
    )
    await ok(admin.put(`/api/edit/games/${gameId}/challenges/${challengeId}`, { isEnabled: true }), 'enable')
  })

  await check('a player registers, joins, is accepted and solves the challenge', async () => {
    const name = `p${randomBytes(4).toString('hex')}`
    await ok(
      player.post('/api/account/register', {
        userName: name,
        email: `${name}@example.org`,
        password: 'Passw0rd!x',
      }),
      'register',
    )
    const team = await ok(player.post('/api/team', { name: `Team ${name}`.slice(0, 20) }), 'create team')
    await ok(player.post(`/api/game/${gameId}`, { teamId: team.json.id }), 'join')
    const list = await ok(admin.get(`/api/game/${gameId}/participations`), 'participations')
    const p = list.json.find((x) => x.team.id === team.json.id)
    await ok(admin.put(`/api/admin/participation/${p.id}`, { status: 'Accepted' }), 'accept')
    const submitted = await ok(
      player.post(`/api/game/${gameId}/challenges/${challengeId}`, { flag: 'flag{deployed}' }),
      'submit',
    )
    const id = submitted.json
    // Polls go round-robin to both servers: the verdict must read the same on each.
    const verdict = await until(
      'the verdict',
      async () => {
        const s = await player.get(`/api/game/${gameId}/challenges/${challengeId}/status/${id}`)
        return s.json === 'Accepted' ? s.json : null
      },
      15_000,
    )
    assert.equal(verdict, 'Accepted')
    for (let i = 0; i < 4; i++) {
      const board = await ok(player.get(`/api/game/${gameId}/scoreboard`), 'scoreboard')
      const row = board.json.items.find((x) => x.id === team.json.id)
      assert.ok(row && row.score > 0, `scoreboard read ${i}: ${JSON.stringify(row)}`)
    }
  })

  await check('a live-update client connects through the proxy and stays connected', async () => {
    const negotiate = await ok(player.req('POST', `/hub/user/negotiate?negotiateVersion=1`), 'negotiate')
    const token = negotiate.json.connectionToken
    const { ws, frames } = await hubClient(`/hub/user?game=${gameId}&id=${token}`)
    await until('the handshake answer', async () => frames.join('').startsWith(`{}${RS}`), 5000)
    // The server pings every 15 s: one arriving shows nginx keeps the connection open and unbuffered.
    await until('a keep-alive ping', async () => frames.join('').includes(`{"type":6}${RS}`), 20_000)
    assert.equal(ws.readyState, WebSocket.OPEN)
    ws.close()
  })

  await check('stopping one server (SIGTERM) loses no request: nginx sends them to the other', async () => {
    let answered = 0
    const failures = []
    let stop = false
    const load = (async () => {
      while (!stop) {
        try {
          const res = await fetch(`${base}/api/config`)
          if (res.status === 200) answered++
          else failures.push(res.status)
          await res.arrayBuffer()
        } catch (err) {
          failures.push(String(err.cause?.code ?? err))
        }
        // real wait: pacing the requests sent while a real container stops
        await sleep(20)
      }
    })()
    // real wait: the load is under way before the stop
    await sleep(500)
    const id = container('pennant-1')
    const before = answered
    const t = Date.now()
    await dcAsync('stop', '-t', '30', 'pennant-1')
    const stoppedIn = Date.now() - t
    const during = answered - before
    // real wait: requests go on after the real stop
    await sleep(1000)
    stop = true
    await load
    const exit = run('docker', ['inspect', '-f', '{{.State.ExitCode}}', id]).stdout.trim()
    console.log(
      `        pennant-1 stopped in ${secs(stoppedIn)} (exit ${exit}); ${during} requests answered while it stopped, ${answered} in all`,
    )
    assert.equal(exit, '0', 'a graceful stop exits 0')
    assert.ok(stoppedIn < 25_000, 'stopped well before Docker would kill it')
    assert.deepEqual(failures, [])
    assert.ok(during > 0, 'requests went on while the server stopped')
    const logs = run('docker', ['logs', id]).stdout + run('docker', ['logs', id]).stderr
    assert.match(logs, /"msg":"shutting down"/)
    assert.match(logs, /"msg":"stopped"/)
  })

  // Last: it spends this machine's login budget. The servers trust nginx alone, so a client
  // naming its own X-Forwarded-For is still counted by the address nginx saw.
  await check('a forged X-Forwarded-For does not escape the wrong-password limit', async () => {
    const codes = []
    for (let i = 0; i < 12; i++) {
      const res = await fetch(`${base}/api/account/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `203.0.113.${i + 1}` },
        body: JSON.stringify({ userName: 'Admin', password: `Wrong${i}x` }),
      })
      await res.arrayBuffer()
      codes.push(res.status)
    }
    assert.deepEqual(codes, [401, 401, 401, 401, 401, ...Array(7).fill(429)])
  })
}

let fatal
try {
  await main()
} catch (err) {
  fatal = err
  failed++
  console.log(`  FAIL  setting up: ${err?.stack ?? err}`)
  try {
    console.log(dc('logs', '--tail', '40').stdout)
  } catch {}
} finally {
  if (process.env.DEPLOY_TEST_KEEP === '1') console.log(`left running (project ${project})`)
  else {
    const t0 = Date.now()
    try {
      dc('down', '-v', '--remove-orphans')
    } catch (err) {
      console.log(`teardown failed: ${err.message}`)
    }
    timings.down = Date.now() - t0
  }
}
const total = Date.now() - started
console.log(
  `\ntimings: base images ${secs(timings.baseImages ?? 0)}, image build ${secs(timings.build ?? 0)}, ` +
    `compose up ${secs(timings.up ?? 0)}, teardown ${secs(timings.down ?? 0)}; total ${secs(total)}`,
)
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed || fatal ? 1 : 0)
