import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { as, twoAppsReady as ready, twoApps } from './two-apps.ts'

// Bloods are handed out as right answers are judged; the board orders solvers by time. With
// several servers a flag whose recording waited (a busy server, a queue ahead of it) must not
// carry an earlier time than a flag judged first blood meanwhile on another server, or the
// board and the blood notices name different teams (seen in a three-server rehearsal).
const FLAG = 'flag{who-was-first}'

let servers: Awaited<ReturnType<typeof twoApps>>

beforeAll(async () => {
  if (ready) servers = await twoApps({ flag: FLAG, players: 2 })
}, 60_000)

afterAll(async () => {
  if (ready) await servers?.close()
}, 60_000)

describe.skipIf(!ready)('bloods across servers', () => {
  it('orders bloods as the board does when a flag is committed after a later one was judged', async () => {
    const { a, b, game, challenge, players } = servers
    const [slow, quick] = players as [(typeof players)[0], (typeof players)[0]]
    const url = `/api/game/${game.id}/challenges/${challenge.id}`

    // Another transaction holds the slow team's row: the slow flag reaches server A and is
    // stamped, but its statement cannot commit yet (its check of the team waits), as when a
    // statement is slow to finish.
    const holder = new pg.Client({ connectionString: a.databaseUrl })
    await holder.connect()
    const lockWaits = async () => {
      // Activity is read once per transaction unless its snapshot is cleared.
      await holder.query('select pg_stat_clear_snapshot()')
      const { rows } = await holder.query(
        `select count(*)::int n from pg_stat_activity
         where datname = current_database() and state = 'active' and wait_event_type = 'Lock'`,
      )
      return rows[0].n as number
    }
    try {
      await holder.query('begin')
      await holder.query('select 1 from teams where id = $1 for update', [slow.teamId])
      const waiting = as(a, slow).post(url, { flag: FLAG })
      await eventually(async () => expect(await lockWaits()).toBe(1))
      // Meanwhile the quick team's flag goes to server B, whose judge then either counts the
      // bloods at once (and misses the slow flag, stamped earlier) or waits for its commit.
      const res = await as(b, quick).post(url, { flag: FLAG })
      expect(res.statusCode).toBe(200)
      let drained = false
      const drainB = b.app.deps.services.judge.drain().then(() => {
        drained = true
      })
      for (let i = 0; i < 100 && !drained && (await lockWaits()) < 2; i++)
        // real wait: polling the database until B's judge is done or waits on the slow flag.
        await new Promise((r) => setTimeout(r, 50))
      await holder.query('commit')
      expect((await waiting).statusCode).toBe(200)
      await drainB
    } finally {
      await holder.end()
    }
    await a.app.deps.services.judge.drain()

    const teamName = async (teamId: number) =>
      ((await new Agent(a.app).get(`/api/team/${teamId}`)).json() as { name: string }).name
    const quickName = await teamName(quick.teamId)
    const slowName = await teamName(slow.teamId)
    const board = await eventually(async () => {
      const res = await new Agent(a.app).get(`/api/game/${game.id}/scoreboard`)
      const body = res.json() as { items: { id: number; solvedChallenges: { type: string }[] }[] }
      expect(body.items.filter((i) => i.solvedChallenges.length)).toHaveLength(2)
      return body
    })
    // The slow flag was stamped first: it is first blood on the board and in the notices.
    const first = board.items.find((i) => i.solvedChallenges[0]?.type === 'FirstBlood')
    expect(first?.id).toBe(slow.teamId)
    const notices = (await new Agent(a.app).get(`/api/game/${game.id}/notices`)).json() as {
      type: string
      values: string[]
    }[]
    expect(notices.find((n) => n.type === 'FirstBlood')?.values[0]).toBe(slowName)
    expect(notices.find((n) => n.type === 'SecondBlood')?.values[0]).toBe(quickName)
  })
})
