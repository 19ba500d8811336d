import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TURN_MS } from '../../src/modules/game/board-share.ts'
import { eventually, type TestUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import type { TestApp } from '../helpers/app.ts'
import { as, REDIS_URL, twoAppsReady as ready, twoApps } from './two-apps.ts'

// Two servers (apps) on one PostgreSQL and one Redis: after solves, one of them renders the
// board and the other serves its bytes; when the turn's holder hands nothing over, each renders
// its own.
const FLAG = 'flag{rendered-once}'

let servers: Awaited<ReturnType<typeof twoApps>>
let a: TestApp
let b: TestApp
let redis: Redis
let PREFIX: string
let game: { id: number }
let challenge: { id: number }
let players: Awaited<ReturnType<typeof twoApps>>['players']

beforeAll(async () => {
  if (!ready) return
  redis = new Redis(REDIS_URL)
  servers = await twoApps({ flag: FLAG, players: 4 })
  ;({ a, b, game, challenge, players, prefix: PREFIX } = servers)
}, 60_000)

afterAll(async () => {
  if (!ready) return
  await servers?.close()
  await redis.quit()
}, 60_000)

const board = (t: TestApp) => new Agent(t.app).get(`/api/game/${game.id}/scoreboard`)

/** Both servers show `solvers` teams with a solve, with the same tag. */
async function shown(solvers: number) {
  await eventually(async () => {
    const [onA, onB] = await Promise.all([board(a), board(b)])
    for (const res of [onA, onB]) {
      expect(res.statusCode).toBe(200)
      const items = res.json().items as { solvedCount: number }[]
      expect(items.filter((i) => i.solvedCount > 0)).toHaveLength(solvers)
    }
    expect(onA.headers.etag).toBe(onB.headers.etag)
  }, 5000)
}

/** How many boards server `t` rendered after solves (its /metrics, read from this machine). */
async function renders(t: TestApp): Promise<number> {
  const res = await t.app.inject({ url: '/metrics', remoteAddress: '127.0.0.1' })
  expect(res.statusCode).toBe(200)
  const line = res.body.match(/pennant_scoreboard_rebuild_seconds_count\{kind="incremental"\} (\d+)/)
  return Number(line?.[1] ?? 0)
}

async function solve(t: TestApp, player: TestUser) {
  const res = await as(t, player).post(`/api/game/${game.id}/challenges/${challenge.id}`, { flag: FLAG })
  expect(res.statusCode).toBe(200)
}

describe.skipIf(!ready)('each board rendered once for every server', () => {
  it('renders on one server after solves judged on either, and the other serves its bytes', async () => {
    await shown(0)
    const before = [await renders(a), await renders(b)]
    await solve(a, players[0]!)
    await shown(1)
    await solve(b, players[1]!)
    await shown(2)
    const added = [(await renders(a)) - before[0]!, (await renders(b)) - before[1]!]
    // One of them rendered (each solve, or both at once), the other none.
    expect(Math.max(...added)).toBeGreaterThan(0)
    expect(Math.min(...added)).toBe(0)
  })

  it('still shows solves when the turn is held by a server that hands nothing over', async () => {
    // A server that died holding the turn: neither may take it until it lapses, so each waits
    // a second for a board that never comes and renders its own (the slower may instead take
    // the first one's, which it hands over too).
    await redis.set(`${PREFIX}board-turn:${game.id}`, 'gone', 'PX', TURN_MS * 10)
    const before = [await renders(a), await renders(b)]
    await solve(a, players[2]!)
    await shown(3)
    expect((await renders(a)) + (await renders(b))).toBeGreaterThan(before[0]! + before[1]!)
    // The turn stayed with the dead server: the board came from the fallback.
    expect(await redis.get(`${PREFIX}board-turn:${game.id}`)).toBe('gone')
  })
})
