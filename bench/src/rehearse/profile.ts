/**
 * The contest the rehearsal plays, all through the public HTTP API and the user hub as the web
 * client does: the organiser sets up a game, its challenges and flags, and the teams' accounts;
 * each team then joins, browses (conditional reads), holds a hub connection, submits wrong and
 * right flags in bursts (at the opening and after every newly enabled challenge) and polls each
 * submission's status every 500 ms until the verdict; some start and destroy containers; the
 * organiser posts notices, edits and enables challenges. Every loop is bounded in time and count.
 */
import { randomBytes } from 'node:crypto'
import WebSocket from 'ws'
import { type Answer, type Recorder, Session, sleep } from './client.ts'

const CATEGORIES = ['Web', 'Crypto', 'Pwn', 'Misc', 'Reverse', 'Forensics', 'OSINT', 'PPC']
const PASSWORD = 'Rehearse1pass'
const RS = '\x1e'

export interface Challenge {
  id: number
  title: string
  flag: string
  container: boolean
  /** Milliseconds into the contest at which the organiser enables it; 0 = enabled from the start. */
  enableAt: number
  enabled: boolean
  enabledAt: number
}

export interface Team {
  index: number
  userName: string
  name: string
  id: number
  session: Session
  skill: number
  solved: Set<number>
  /** Challenges the team has seen enabled (from details or a NewChallenge notice). */
  seen: Set<number>
  fresh: number[]
  wake: (() => void) | null
  wrongCount: number
  requests: number
}

export interface Acked {
  team: string
  teamIndex: number
  challenge: string
  cid: number
  flag: string
  right: boolean
  id: number
  postAt: number
  verdict: string | null
  verdictAt: number | null
}

export interface NoticeStat {
  content: string
  postedAt: number
  expected: number
  arrivals: number[]
}

export interface World {
  runId: string
  gameId: number
  challenges: Challenge[]
  teams: Team[]
  admin: Session
  acked: Acked[]
  /** POSTs that got no 200-with-an-id (the server may or may not have stored them). */
  unacked: { team: string; challenge: string; flag: string; status: number }[]
  flagToBoard: { t: number; ms: number }[]
  notices: NoticeStat[]
  containerStarts: { ok: number; failed: number; statuses: Record<number, number> }
  hub: { connects: number; drops: number; open: number }
  enabledLog: { t: number; title: string }[]
  verdictTimeouts: number
}

const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!
const jitter = (a: number, b: number) => a + Math.random() * (b - a)
const ok = (a: Answer) => a.status >= 200 && a.status < 300

async function must(label: string, a: Promise<Answer>): Promise<Answer> {
  const r = await a
  if (!ok(r)) throw new Error(`set-up: ${label} answered ${r.status} ${r.text.slice(0, 300)}`)
  return r
}

/** Runs `n` tasks at most `width` at a time. */
async function pool<T>(items: T[], width: number, fn: (x: T, i: number) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(width, items.length) }, async () => {
      while (next < items.length) {
        const i = next++
        await fn(items[i]!, i)
      }
    }),
  )
}

export async function setUp(o: {
  servers: string[]
  rec: Recorder
  adminUser: string
  adminPassword: string
  teams: number
  challenges: number
  containers: number
  image: string | null
  minutes: number
  say: (s: string) => void
}): Promise<World> {
  const runId = randomBytes(3).toString('hex')
  const admin = new Session(o.servers[0]!, o.rec, 120_000)
  await must(
    'admin login',
    admin.request('login', 'POST', '/api/account/login', {
      userName: o.adminUser,
      password: o.adminPassword,
    }),
  )
  const now = Date.now()
  const game = admin.json<{ id: number }>(
    await must(
      'game',
      admin.request('setup', 'POST', '/api/edit/games', {
        title: `Rehearsal ${runId}`,
        summary: 'A rehearsal of the contest',
        content: 'Nothing here is real.',
        start: now - 60_000,
        end: now + (o.minutes + 60) * 60_000,
        acceptWithoutReview: true,
        practiceMode: false,
        containerCountLimit: 3,
      }),
    ),
  )!
  const gameId = game.id
  // Challenges: the container ones first, then static ones; about a sixth of the static ones
  // start disabled and are enabled one by one between 15 % and 70 % of the run.
  const runMs = o.minutes * 60_000
  const containerCount = o.image ? Math.min(o.containers, o.challenges) : 0
  const staticCount = o.challenges - containerCount
  const disabled = Math.max(1, Math.round(staticCount / 6))
  const challenges: Challenge[] = []
  for (let i = 0; i < o.challenges; i++) {
    const container = i < containerCount
    const title = `${container ? 'Box' : 'Puzzle'} ${String(i + 1).padStart(2, '0')}`
    const c = admin.json<{ id: number }>(
      await must(
        'challenge',
        admin.request('setup', 'POST', `/api/edit/games/${gameId}/challenges`, {
          title,
          category: CATEGORIES[i % CATEGORIES.length],
          type: container ? 'StaticContainer' : 'StaticAttachment',
        }),
      ),
    )!
    const flag = `flag{rehearsal_${runId}_${i}_${randomBytes(4).toString('hex')}}`
    await must(
      'flag',
      admin.request('setup', 'POST', `/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag }]),
    )
    const late = !container && i >= o.challenges - disabled
    const lateIndex = i - (o.challenges - disabled)
    await must(
      'challenge edit',
      admin.request('setup', 'PUT', `/api/edit/games/${gameId}/challenges/${c.id}`, {
        isEnabled: !late,
        content: `Find the flag of ${title}.`,
        originalScore: 500,
        ...(container
          ? { containerImage: o.image, containerExposePort: 8080, memoryLimit: 64, cpuCount: 1 }
          : {}),
      }),
    )
    challenges.push({
      id: c.id,
      title,
      flag,
      container,
      enableAt: late ? Math.round(runMs * (0.15 + (0.55 * (lateIndex + 0.5)) / disabled)) : 0,
      enabled: !late,
      enabledAt: late ? -1 : 0,
    })
  }
  o.say(
    `Game ${gameId}: ${o.challenges} challenges (${containerCount} with containers, ${disabled} enabled during the run)`,
  )

  // Accounts in batches through the admin API, each user the captain of a team of their own.
  const width = String(o.teams).length
  const users = Array.from({ length: o.teams }, (_, i) => ({
    userName: `r${runId}_${String(i + 1).padStart(width, '0')}`,
    name: `Rehearsal ${runId} ${String(i + 1).padStart(width, '0')}`,
  }))
  for (let i = 0; i < users.length; i += 50) {
    const batch = users.slice(i, i + 50)
    await must(
      'users',
      admin.request(
        'setup',
        'POST',
        '/api/admin/users',
        batch.map((u) => ({
          userName: u.userName,
          password: PASSWORD,
          email: `${u.userName}@rehearsal.test`,
          teamName: u.name,
        })),
      ),
    )
  }
  // Each player signs in, finds their team and joins the game (accepted without review).
  const teams: Team[] = users.map((u, index) => ({
    index,
    userName: u.userName,
    name: u.name,
    id: 0,
    session: new Session(o.servers[index % o.servers.length]!, o.rec),
    skill: jitter(0.3, 1),
    solved: new Set(),
    seen: new Set(),
    fresh: [],
    wake: null,
    wrongCount: 0,
    requests: 0,
  }))
  const t0 = Date.now()
  await pool(teams, 8, async (team) => {
    const s = team.session
    await must('config', s.request('config', 'GET', '/api/config'))
    await must(
      'login',
      s.request('login', 'POST', '/api/account/login', { userName: team.userName, password: PASSWORD }),
    )
    const mine = s.json<{ id: number; name: string }[]>(
      await must('teams', s.request('team', 'GET', '/api/team')),
    )!
    team.id = mine.find((t) => t.name === team.name)?.id ?? 0
    if (!team.id) throw new Error(`set-up: ${team.userName} is not in ${team.name}`)
    await must('join', s.request('join', 'POST', `/api/game/${gameId}`, { teamId: team.id }))
  })
  o.say(`${o.teams} teams signed in and joined in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
  return {
    runId,
    gameId,
    challenges,
    teams,
    admin,
    acked: [],
    unacked: [],
    flagToBoard: [],
    notices: [],
    containerStarts: { ok: 0, failed: 0, statuses: {} },
    hub: { connects: 0, drops: 0, open: 0 },
    enabledLog: [],
    verdictTimeouts: 0,
  }
}

export interface PlayOptions {
  world: World
  rec: Recorder
  /** Milliseconds into the recorder's clock at which the contest ends. */
  endAt: number
  /** Teams that start and destroy a container once each. */
  containerTeams: number
  /** Every how many teams one watches the board after its solves (flag-to-board latency). */
  boardWatchEvery: number
  maxRequestsPerTeam: number
  say: (s: string) => void
  /** Work started alongside a player's loop (containers), awaited before the contest ends. */
  background: Promise<void>[]
}

/** The whole contest: players, their hub connections and the organiser, until `endAt`. */
export async function play(o: PlayOptions) {
  const { world, rec } = o
  const running = () => rec.now() < o.endAt
  const hubs = world.teams.map((team) => holdHub(team, o, running))
  const organiser = organise(o, running)
  await Promise.all(world.teams.map((team) => player(team, o, running)))
  await organiser
  await Promise.all(o.background)
  await Promise.all(hubs.map((h) => h.close()))
}

function wakeUp(team: Team) {
  const w = team.wake
  team.wake = null
  w?.()
}

/** Sleeps up to `ms`, less when something new (a challenge) wakes the team. */
function nap(team: Team, ms: number) {
  return new Promise<void>((resolve) => {
    const t = setTimeout(() => {
      team.wake = null
      resolve()
    }, ms)
    team.wake = () => {
      clearTimeout(t)
      resolve()
    }
  })
}

async function player(team: Team, o: PlayOptions, running: () => boolean) {
  const { world } = o
  const g = world.gameId
  const s = team.session
  const budget = () => running() && team.requests < o.maxRequestsPerTeam
  const count = () => {
    team.requests++
  }
  await sleep(jitter(0, 3000))
  // Opening the game page.
  count()
  await s.request('game', 'GET', `/api/game/${g}`)
  const refresh = async () => {
    count()
    const d = s.json<{ challenges?: Record<string, { id: number }[]> }>(
      await s.conditional('details', `/api/game/${g}/details`),
    )
    for (const list of Object.values(d?.challenges ?? {}))
      for (const c of list)
        if (!team.seen.has(c.id)) {
          team.seen.add(c.id)
          team.fresh.push(c.id)
        }
    count()
    await s.conditional('notices', `/api/game/${g}/notices`)
    count()
    await s.conditional('scoreboard', `/api/game/${g}/scoreboard`)
  }
  await refresh()
  // The opening burst: everything visible is new.
  const opening = team.fresh.splice(0)
  await burst(team, opening, o, budget, true)

  // Which challenge the team works on next, and whether it will ever solve it.
  const byId = new Map(world.challenges.map((c) => [c.id, c]))
  let nextRefresh = Date.now() + 10_000
  while (budget()) {
    if (team.fresh.length) {
      await burst(team, team.fresh.splice(0), o, budget, false)
      continue
    }
    if (Date.now() >= nextRefresh) {
      nextRefresh = Date.now() + 10_000
      await refresh()
      continue
    }
    // Work on an open, unsolved challenge now and then.
    const open = [...team.seen].filter((id) => !team.solved.has(id) && !byId.get(id)?.container)
    if (open.length && Math.random() < 0.35) {
      const c = byId.get(pick(open))!
      count()
      await s.request('challenge', 'GET', `/api/game/${g}/challenges/${c.id}`)
      await nap(team, jitter(1000, 4000))
      const right = Math.random() < team.skill * 0.25
      await submit(team, c, right, o, count)
    }
    await nap(team, Math.max(0, Math.min(nextRefresh - Date.now(), jitter(2000, 6000))))
  }
}

/** Newly visible challenges: most teams open them at once and try flags. */
async function burst(team: Team, ids: number[], o: PlayOptions, budget: () => boolean, opening: boolean) {
  const { world } = o
  const g = world.gameId
  const s = team.session
  const count = () => {
    team.requests++
  }
  const byId = new Map(world.challenges.map((c) => [c.id, c]))
  // At the opening each team goes for a couple; a new challenge draws most teams.
  const chosen = opening
    ? ids
        .filter((id) => !byId.get(id)?.container)
        .sort(() => Math.random() - 0.5)
        .slice(0, 2)
    : ids.filter(() => Math.random() < 0.75)
  const containerChoice = ids.find((id) => byId.get(id)?.container)
  if (opening && containerChoice !== undefined && team.index < o.containerTeams) {
    // Run concurrently: the container's life spans some of the team's other work.
    o.background.push(containerFlow(team, byId.get(containerChoice)!, o, budget))
  }
  await Promise.all(
    chosen.map(async (id) => {
      const c = byId.get(id)
      if (!c || !budget()) return
      await sleep(jitter(0, 2000))
      count()
      await s.request('challenge', 'GET', `/api/game/${g}/challenges/${id}`)
      const wrong = Math.floor(Math.random() * 3)
      for (let i = 0; i < wrong && budget(); i++) {
        await submit(team, c, false, o, count)
        await sleep(jitter(300, 1500))
      }
      if (budget() && Math.random() < 0.3 + team.skill * 0.5) await submit(team, c, true, o, count)
    }),
  )
}

/** One submission: POST (retried like a player would when it fails), then the status every 500 ms. */
async function submit(team: Team, c: Challenge, right: boolean, o: PlayOptions, count: () => void) {
  if (right && team.solved.has(c.id)) return
  const { world, rec } = o
  const g = world.gameId
  const s = team.session
  const flag = right ? c.flag : `flag{wrong_${team.index}_${c.id}_${++team.wrongCount}}`
  const path = `/api/game/${g}/challenges/${c.id}`
  let id = 0
  let postAt = 0
  for (let attempt = 0; attempt < 5 && rec.now() < o.endAt + 30_000; attempt++) {
    postAt = Date.now()
    count()
    const a = await s.request('submit', 'POST', path, { flag })
    const n = a.status === 200 ? Number(a.text) : Number.NaN
    if (Number.isInteger(n) && n > 0) {
      id = n
      break
    }
    world.unacked.push({ team: team.name, challenge: c.title, flag, status: a.status })
    // A 4xx other than too-many-requests is an answer: trying again would not change it.
    if (a.status >= 400 && a.status < 500 && a.status !== 429 && a.status !== 409) return
    await sleep(jitter(1000, 3000))
  }
  if (!id) return
  const ack: Acked = {
    team: team.name,
    teamIndex: team.index,
    challenge: c.title,
    cid: c.id,
    flag,
    right,
    id,
    postAt: postAt - rec.t0,
    verdict: null,
    verdictAt: null,
  }
  world.acked.push(ack)
  if (right) team.solved.add(c.id)
  for (let polls = 0; polls < 120; polls++) {
    await sleep(500)
    count()
    const a = await s.request('status', 'GET', `${path}/status/${id}`)
    if (a.status !== 200) continue
    const verdict = s.json<string>(a)
    if (verdict && verdict !== 'FlagSubmitted') {
      ack.verdict = verdict
      ack.verdictAt = Date.now() - rec.t0
      break
    }
  }
  if (!ack.verdict) world.verdictTimeouts++
  if (ack.verdict === 'Accepted' && team.index % o.boardWatchEvery === 0) await watchBoard(team, c, postAt, o)
}

/** After a solve, the board (conditional GETs every 250 ms) until it shows the solve. */
async function watchBoard(team: Team, c: Challenge, postAt: number, o: PlayOptions) {
  const s = team.session
  const path = `/api/game/${o.world.gameId}/scoreboard`
  const deadline = Date.now() + 30_000
  while (Date.now() < deadline) {
    const a = await s.conditional('scoreboard', path)
    if (a.status === 200 || a.status === 304) {
      const board = s.json<{ items: { id: number; solvedChallenges: { id: number }[] }[] }>(a)
      if (board?.items.find((x) => x.id === team.id)?.solvedChallenges.some((x) => x.id === c.id)) {
        o.world.flagToBoard.push({ t: postAt - o.rec.t0, ms: Date.now() - postAt })
        return
      }
    }
    await sleep(250)
  }
}

/** Starts the team's container, uses it for a while, destroys it after the 10 s cool-down. */
async function containerFlow(team: Team, c: Challenge, o: PlayOptions, budget: () => boolean) {
  const { world, rec } = o
  const s = team.session
  const path = `/api/game/${world.gameId}/container/${c.id}`
  await sleep(jitter(0, Math.max(1000, (o.endAt - rec.now()) * 0.6)))
  if (!budget()) return
  team.requests++
  const started = await s.request('container-start', 'POST', path)
  world.containerStarts.statuses[started.status] = (world.containerStarts.statuses[started.status] ?? 0) + 1
  if (started.status !== 200) {
    world.containerStarts.failed++
    return
  }
  world.containerStarts.ok++
  const startedAt = Date.now()
  team.requests++
  await s.request('challenge', 'GET', `/api/game/${world.gameId}/challenges/${c.id}`)
  await submit(team, c, true, o, () => {
    team.requests++
  })
  // The cool-down between two operations on one container is 10 s.
  await sleep(Math.max(0, startedAt + jitter(11_000, 20_000) - Date.now()))
  for (let attempt = 0; attempt < 5; attempt++) {
    team.requests++
    const a = await s.request('container-destroy', 'DELETE', path)
    if (a.status === 200) return
    await sleep(3000)
  }
}

/** The team's `/hub/user` connection, reconnecting as the SignalR client does when it drops. */
function holdHub(team: Team, o: PlayOptions, running: () => boolean) {
  const { world, rec } = o
  let ws: WebSocket | null = null
  let closed = false
  let pinger: NodeJS.Timeout | null = null
  const onNotice = (n: { type?: string; values?: string[] }) => {
    if (n.type === 'Normal') {
      const stat = world.notices.find((x) => x.content === n.values?.[0])
      stat?.arrivals.push(rec.now() - stat.postedAt)
    } else if (n.type === 'NewChallenge') {
      const c = world.challenges.find((x) => x.title === n.values?.[0])
      if (c && !team.seen.has(c.id)) {
        team.seen.add(c.id)
        team.fresh.push(c.id)
        wakeUp(team)
      }
    }
  }
  const connect = async () => {
    while (running() && !closed) {
      const s = team.session
      const neg = await s.request(
        'hub-negotiate',
        'POST',
        `/hub/user/negotiate?negotiateVersion=1&game=${world.gameId}`,
      )
      const token = s.json<{ connectionToken?: string }>(neg)?.connectionToken
      if (neg.status === 200 && token) {
        const url = `${s.base.replace(/^http/, 'ws')}/hub/user?game=${world.gameId}&id=${token}`
        const started = Date.now()
        const opened = await new Promise<boolean>((resolve) => {
          const sock = new WebSocket(url, {
            headers: { cookie: [...s.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
            perMessageDeflate: false,
          })
          ws = sock
          let shaken = false
          sock.on('open', () => sock.send(`{"protocol":"json","version":1}${RS}`))
          sock.on('message', (data) => {
            for (const record of data.toString().split(RS)) {
              if (!record) continue
              if (!shaken) {
                shaken = true
                rec.add('hub-connect', started, 101)
                world.hub.connects++
                world.hub.open++
                resolve(true)
                continue
              }
              try {
                const m = JSON.parse(record) as { type: number; target?: string; arguments?: unknown[] }
                if (m.type === 1 && m.target === 'ReceivedGameNotice') onNotice(m.arguments?.[0] as never)
                else if (m.type === 7) sock.close()
              } catch {}
            }
          })
          sock.on('error', () => {})
          sock.on('close', () => {
            if (shaken) {
              world.hub.open--
              if (!closed) world.hub.drops++
            } else rec.add('hub-connect', started, 0)
            resolve(false)
            if (shaken && !closed && running()) void reconnectSoon()
          })
        })
        if (opened) return
      }
      await sleep(jitter(2000, 5000))
    }
  }
  const reconnectSoon = async () => {
    await sleep(jitter(0, 2000))
    await connect()
  }
  void (async () => {
    await sleep(jitter(0, 3000))
    await connect()
  })()
  pinger = setInterval(() => {
    if (ws?.readyState === WebSocket.OPEN) ws.send(`{"type":6}${RS}`)
  }, 15_000)
  return {
    async close() {
      closed = true
      if (pinger) clearInterval(pinger)
      ws?.close()
    },
  }
}

/** The organiser: enables challenges on schedule, posts notices, edits a challenge now and then. */
async function organise(o: PlayOptions, running: () => boolean) {
  const { world, rec } = o
  const admin = world.admin
  const g = world.gameId
  let k = 0
  const start = rec.now()
  let nextNotice = start + 20_000
  let nextEdit = start + 30_000
  const retry = async (kind: string, method: string, path: string, body: unknown) => {
    for (let i = 0; i < 10; i++) {
      const a = await admin.request(kind, method, path, body)
      if (a.status === 200) return a
      await sleep(2000)
    }
    return null
  }
  while (running()) {
    const t = rec.now()
    for (const c of world.challenges) {
      // `enableAt` counts from the contest's start, not from the run's (set-up comes first).
      if (c.enabled || c.enableAt > t - start) continue
      c.enabled = true
      const a = await retry('admin-edit', 'PUT', `/api/edit/games/${g}/challenges/${c.id}`, {
        isEnabled: true,
      })
      c.enabledAt = rec.now()
      world.enabledLog.push({ t: c.enabledAt, title: c.title })
      o.say(`  ${(c.enabledAt / 1000).toFixed(0)} s: organiser enabled ${c.title}${a ? '' : ' (FAILED)'}`)
      for (const team of world.teams) wakeUp(team)
    }
    if (t >= nextNotice) {
      nextNotice = t + 40_000
      const content = `Rehearsal notice ${++k}: hydrate.`
      const stat: NoticeStat = { content, postedAt: rec.now(), expected: world.hub.open, arrivals: [] }
      world.notices.push(stat)
      await retry('admin-notice', 'POST', `/api/edit/games/${g}/notices`, { content })
    }
    if (t >= nextEdit) {
      nextEdit = t + 60_000
      const c = pick(world.challenges.filter((x) => x.enabled))
      await retry('admin-edit', 'PUT', `/api/edit/games/${g}/challenges/${c.id}`, {
        content: `Find the flag of ${c.title}. (Edited at ${(t / 1000).toFixed(0)} s.)`,
      })
    }
    await sleep(1000)
  }
}
