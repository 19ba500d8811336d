import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eventually, type TestUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import type { TestApp } from '../helpers/app.ts'
import { as, twoAppsReady as ready, twoApps } from './two-apps.ts'

// Two servers (apps) on one PostgreSQL and one Redis, as behind a round-robin proxy: the same
// board must carry the same ETag on both, so a conditional read from one answers 304 on the
// other.
const FLAG = 'flag{same-tag}'

let servers: Awaited<ReturnType<typeof twoApps>>
let a: TestApp
let b: TestApp
let game: { id: number }
let challenge: { id: number }
let players: Awaited<ReturnType<typeof twoApps>>['players']

beforeAll(async () => {
  if (!ready) return
  servers = await twoApps({ flag: FLAG, players: 3 })
  ;({ a, b, game, challenge, players } = servers)
}, 60_000)

afterAll(async () => {
  if (ready) await servers?.close()
}, 60_000)

const board = (t: TestApp, etag?: string) =>
  new Agent(t.app).get(`/api/game/${game.id}/scoreboard`, etag ? { 'if-none-match': etag } : {})

/**
 * Both servers serve the board with `solvers` teams on it, and the same one: the same ETag, and
 * bodies alike but for their build time.
 */
async function sameBoard(solvers: number) {
  return eventually(async () => {
    const [onA, onB] = await Promise.all([board(a), board(b)])
    expect(onA.statusCode).toBe(200)
    expect(onB.statusCode).toBe(200)
    for (const res of [onA, onB]) {
      const items = res.json().items as { solvedCount: number }[]
      expect(items.filter((i) => i.solvedCount > 0)).toHaveLength(solvers)
    }
    expect(onA.headers.etag).toBe(onB.headers.etag)
    const { updateTimeUtc: _a, ...bodyA } = onA.json()
    const { updateTimeUtc: _b, ...bodyB } = onB.json()
    expect(bodyA).toEqual(bodyB)
    return { onA, onB, etag: onA.headers.etag as string }
  }, 5000)
}

async function solve(t: TestApp, player: TestUser) {
  const res = await as(t, player).post(`/api/game/${game.id}/challenges/${challenge.id}`, { flag: FLAG })
  expect(res.statusCode).toBe(200)
}

describe.skipIf(!ready)('one ETag per board state on every server', () => {
  it('gives the same board the same ETag on both servers, and a tag from one answers 304 on the other', async () => {
    const before = await sameBoard(0)
    expect(before.etag).toMatch(/^W\/"/)
    // A solve judged on A: B hears of it on the bus and rebuilds to the very same tag.
    await solve(a, players[0]!)
    const after = await sameBoard(1)
    expect(after.etag).not.toBe(before.etag)
    // The client holds A's tag; the proxy sends its next read to B, and the other way round.
    expect((await board(b, after.etag)).statusCode).toBe(304)
    expect((await board(a, after.etag)).statusCode).toBe(304)
    // A stale tag still gets the new board.
    const stale = await board(b, before.etag)
    expect(stale.statusCode).toBe(200)
    expect(stale.headers.etag).toBe(after.etag)
  })

  it('keeps the tag when a rebuild finds the same board; team details and solves judged on B agree too', async () => {
    const { etag } = await sameBoard(1)
    // Something else changed (reloaded from the database): same content, same tag.
    b.app.deps.services.scoreboard.invalidate(game.id)
    await b.app.deps.services.scoreboard.reload(game.id)
    expect((await board(b, etag)).statusCode).toBe(304)
    // A team's details carry the board's tag too, alike on both servers.
    const player = players[1]!
    const details = (t: TestApp) => as(t, player).get(`/api/game/${game.id}/details`)
    const [dA, dB] = await Promise.all([details(a), details(b)])
    expect(dA.statusCode).toBe(200)
    expect(dA.headers.etag).toBe(dB.headers.etag)
    // A solve judged on B this time: both agree again.
    await solve(b, players[2]!)
    const after = await sameBoard(2)
    expect(after.etag).not.toBe(etag)
  })
})
