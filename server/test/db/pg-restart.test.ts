import { type SQL, sql } from 'drizzle-orm'
import type { LightMyRequestResponse } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  acceptedPlayer,
  adminAgent,
  createGame,
  eventually,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'
import { canRunPostgres, type PostgresServer, startPostgres } from '../helpers/postgres-server.ts'

// A PostgreSQL of this file's own (the shared one must stay up), restarted and stopped under
// the app's feet: requests answer 200 or 503 with Retry-After, never 500; every acknowledged
// flag is stored once and judged once; the app serves again by itself once PostgreSQL is back.

const FLAG = 'flag{restart}'
let pg: PostgresServer
let t: TestApp
let admin: Agent
let game: { id: number }
let challenge: { id: number }
let players: (TestUser & { teamId: number })[]

beforeAll(async () => {
  if (!canRunPostgres()) return
  pg = await startPostgres()
  // Flags as fast as the burst sends them: the submit rate limit is not what is tested here.
  t = await createTestApp({ DISABLE_RATE_LIMIT: 'true' }, {}, { server: pg.url })
  admin = await adminAgent(t.app)
  game = await createGame(admin)
  challenge = await staticChallenge(admin, game.id, FLAG)
  players = await Promise.all(Array.from({ length: 6 }, () => acceptedPlayer(t.app, admin, game.id)))
}, 90_000)

afterAll(async () => {
  // Once (of many runs), on a loaded machine, the app's close waited on its pool for over a
  // minute after the restarts; stopping PostgreSQL ends whatever it waits for. Not what this file
  // tests, so it is bounded here (see the PostgreSQL docs' open questions).
  const closing = t?.close().catch(() => {})
  const stuck = await Promise.race([
    Promise.resolve(closing).then(() => false),
    // real wait: a deadline in a race, not a pause
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 20_000)),
  ])
  await pg?.close()
  // Still waiting once PostgreSQL is gone: leave it (the server's own shutdown has its own
  // deadline, SHUTDOWN_TIMEOUT); a hook that waited on it would fail the file for nothing.
  if (stuck)
    await Promise.race([
      closing,
      // real wait: a deadline in a race, not a pause
      new Promise((resolve) => setTimeout(resolve, 10_000)),
    ])
}, 60_000)

async function select<T>(statement: SQL): Promise<T[]> {
  return ((await t.app.deps.db.execute(statement)) as unknown as { rows: T[] }).rows
}

/** A failure answer as the contract has it: 503, `{title, status: 503}`, `Retry-After` 1–2 s. */
function expectUnavailable(res: LightMyRequestResponse, what: string) {
  expect(res.statusCode, `${what}: ${res.body}`).toBe(503)
  expect(res.json(), what).toEqual({ title: expect.any(String), status: 503 })
  const retry = Number(res.headers['retry-after'])
  expect(retry, what).toBeGreaterThanOrEqual(1)
  expect(retry, what).toBeLessThanOrEqual(2)
}

describe.skipIf(!canRunPostgres())('PostgreSQL restarts and stops', () => {
  it('answers 503 with Retry-After while PostgreSQL is down, and serves again once it is back', async () => {
    const player = players[0]!
    const detail = `/api/game/${game.id}/challenges/${challenge.id}`
    expect((await player.agent.get(detail)).statusCode).toBe(200)
    await pg.stop()
    try {
      expectUnavailable(await player.agent.get(detail), 'read')
      expectUnavailable(await player.agent.post(detail, { flag: 'flag{while-down}' }), 'submit')
      // In the request's culture, like every catalogue error.
      const fr = await player.agent.get(`${detail}?culture=fr-FR`)
      expectUnavailable(fr, 'read in French')
      expect(fr.json().title).not.toBe((await player.agent.get(detail)).json().title)
      const ready = await player.agent.get('/healthz/ready')
      expect(ready.statusCode).toBe(503)
      expect(ready.json()).toEqual({ status: 'Unhealthy' })
    } finally {
      await pg.start()
    }
    // No restart of the app: its pool connects again by itself.
    const back = Date.now()
    await eventually(async () => expect((await player.agent.get(detail)).statusCode).toBe(200), 5000)
    console.log(`served again ${Date.now() - back} ms after PostgreSQL was back`)
    expect((await player.agent.get('/healthz/ready')).statusCode).toBe(200)
  })

  it('keeps every acknowledged flag of a burst across a restart, judged once, and no 500', async () => {
    const answers: { status: number; at: number; res: LightMyRequestResponse; read: boolean }[] = []
    const acked = new Map<number, { answer: string; teamId: number }>()
    let running = true
    let restarting = false
    let n = 0
    const submitter = async (player: TestUser & { teamId: number }, k: number) => {
      let solved = false
      for (let i = 0; running; i++) {
        // Each player sends the right flag once the restart is under way (until it is taken);
        // otherwise wrong answers, each one unique so its event can be counted.
        const right = restarting && !solved && i % 3 === k % 3
        const answer = right ? FLAG : `flag{wrong-${player.teamId}-${n++}}`
        const res = await player.agent.post(`/api/game/${game.id}/challenges/${challenge.id}`, {
          flag: answer,
        })
        answers.push({ status: res.statusCode, at: Date.now(), res, read: false })
        if (res.statusCode === 200) {
          acked.set(res.json() as number, { answer, teamId: player.teamId })
          if (right) solved = true
        }
        // real wait: pacing load around a real PostgreSQL restart
        await new Promise((r) => setTimeout(r, 15))
      }
    }
    const reader = async (player: TestUser) => {
      while (running) {
        const res = await player.agent.get(`/api/game/${game.id}/challenges/${challenge.id}`)
        answers.push({ status: res.statusCode, at: Date.now(), res, read: true })
        // real wait: pacing load around a real PostgreSQL restart
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    const load = [...players.map((p, k) => submitter(p, k)), reader(players[0]!), reader(players[1]!)]
    // Under way before, during and after the restart.
    // real wait: load under way before the real restart
    await new Promise((r) => setTimeout(r, 500))
    restarting = true
    const restartAt = Date.now()
    await pg.restart()
    const restartedAt = Date.now()
    // real wait: load goes on after the real restart
    await new Promise((r) => setTimeout(r, 1500))
    running = false
    await Promise.all(load)

    const statuses = new Set(answers.map((a) => a.status))
    for (const a of answers)
      if (a.status !== 200) expectUnavailable(a.res, `answer at ${a.at - restartAt} ms`)
    expect([...statuses].every((s) => s === 200 || s === 503)).toBe(true)
    const failed = answers.filter((a) => a.status !== 200)
    const window = failed.length ? failed.at(-1)!.at - failed[0]!.at : 0
    console.log(
      `restart took ${restartedAt - restartAt} ms; ${answers.length} answers, ${failed.length} 503s (${failed.filter((a) => a.read).length} of ${answers.filter((a) => a.read).length} reads) over ${window} ms; ${acked.size} flags acknowledged`,
    )
    expect(window).toBeLessThanOrEqual(2000)
    // Serving after the restart: the last answers were 200.
    expect(answers.at(-1)!.status).toBe(200)

    // Every acknowledged submission stored once and judged, each with one judging event.
    type Row = { id: number; status: string; answer: string; events: number }
    const stored = await eventually(async () => {
      const rows = await select<Row>(sql`
          select s.id, s.status, s.answer,
            (select count(*)::int from game_events e
              where e.game_id = s.game_id and e.type = 3 and e.team_id = s.team_id and e."values"->>1 = s.answer) events
          from submissions s where s.game_id = ${game.id} and s.id = any(${`{${[...acked.keys()].join(',')}}`}::int[])`)
      expect(rows.filter((r) => r.status === 'FlagSubmitted')).toEqual([])
      return rows
    }, 15_000)
    expect(stored.map((r) => r.id).sort((a, b) => a - b)).toEqual([...acked.keys()].sort((a, b) => a - b))
    for (const r of stored) {
      expect(r.answer).toBe(acked.get(r.id)!.answer)
      expect(r.status).toBe(r.answer === FLAG ? 'Accepted' : 'WrongAnswer')
      // The right flag may be sent by a team more than once; wrong answers are unique.
      if (r.answer !== FLAG) expect(r.events, `events of submission ${r.id}`).toBe(1)
    }
    // Each team whose right flag was acknowledged solved the challenge once, and the board says so.
    const solvers = new Set([...acked.values()].filter((a) => a.answer === FLAG).map((a) => a.teamId))
    expect(solvers.size).toBeGreaterThan(0)
    const [counted] = await select<{ n: number }>(
      sql`select accepted_count n from challenges where id = ${challenge.id}`,
    )
    expect(counted!.n).toBe(solvers.size)
    await eventually(async () => {
      const board = (await admin.get(`/api/game/${game.id}/scoreboard`)).json() as {
        items: { id: number; solvedCount: number }[]
      }
      const solved = board.items.filter((i) => i.solvedCount > 0).map((i) => i.id)
      expect(new Set(solved)).toEqual(solvers)
    }, 5000)
  }, 60_000)
})
