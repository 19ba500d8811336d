import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createScoreboardService } from '../../src/modules/game/scoreboard.service.ts'
import { acceptedPlayer, adminAgent, createGame, staticChallenge } from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

/** Past the longest coalescing wait (800 ms): the rebuild of the solves so far runs now. */
const settle = () => t.clock.advance(800)

describe('loading a board', () => {
  it('keeps a solve judged while the board was being read from the database', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{early}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    const { participations } = await import('../../src/db/schema.ts')
    const { eq } = await import('drizzle-orm')
    const [part] = await t.app.deps.db
      .select({ id: participations.id })
      .from(participations)
      .where(eq(participations.gameId, game.id))
    const boards = createScoreboardService({ db: t.app.deps.db, clock: t.app.deps.clock, delayMs: 10 })
    try {
      // The first read starts the load; the solve arrives before it is done.
      const loading = boards.get(game.id)
      boards.addSolve(
        game.id,
        { challengeId: c.id, participationId: part!.id, userName: player.userName, time: Date.now() - 1000 },
        1,
      )
      const entry = await loading
      const board = JSON.parse(entry.bytes.toString())
      expect(board.items[0]).toMatchObject({ id: player.teamId, solvedCount: 1 })
    } finally {
      boards.close()
    }
  })
})

describe('boards loaded as the server starts', () => {
  it('loads the running games’ boards, latest started first, and none of a hidden, ended or upcoming game', async () => {
    const minute = 60_000
    const running = await createGame(admin, { start: Date.now() - minute })
    const c = await staticChallenge(admin, running.id, 'flag{warm}')
    await acceptedPlayer(t.app, admin, running.id)
    const hidden = await createGame(admin, { start: Date.now() - minute / 2, hidden: true })
    const ended = await createGame(admin, { start: Date.now() - 3 * 3_600_000, end: Date.now() - minute })
    const upcoming = await createGame(admin, { start: Date.now() + 3_600_000 })
    const boards = createScoreboardService({ db: t.app.deps.db, clock: t.app.deps.clock, delayMs: 10 })
    try {
      const warmed = await boards.warm()
      expect(warmed[0]).toBe(running.id)
      for (const other of [hidden, ended, upcoming]) expect(warmed).not.toContain(other.id)
      // Its first reader finds it built: not one statement more.
      const before = t.queries()
      const entry = await boards.get(running.id)
      expect(t.queries()).toBe(before)
      const board = JSON.parse(entry.bytes.toString())
      expect(board.items).toHaveLength(1)
      expect(Object.values(board.challenges).flat()).toEqual([expect.objectContaining({ id: c.id })])
    } finally {
      boards.close()
    }
  })
})

describe('scoreboard buffers', () => {
  it('reuses a board’s buffer only once no response is sending it', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{buf}')
    const players = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
    // Every board counts as big here, so every rebuild goes through the reused buffers.
    const boards = createScoreboardService({
      db: t.app.deps.db,
      clock: t.app.deps.clock,
      delayMs: 10,
      slabMinBytes: 0,
    })
    try {
      await boards.get(game.id)
      const { participations } = await import('../../src/db/schema.ts')
      const { eq } = await import('drizzle-orm')
      const parts = await t.app.deps.db
        .select({ id: participations.id })
        .from(participations)
        .where(eq(participations.gameId, game.id))
      expect(parts).toHaveLength(players.length)
      // A team's earlier solve replaces its later one: the board keeps its size from here on.
      let time = Date.now() - 3_600_000
      const solve = (i: number) => {
        time -= 1000
        boards.addSolve(
          game.id,
          { challengeId: c.id, participationId: parts[i % parts.length]!.id, userName: null, time },
          parts.length,
        )
      }
      solve(0)
      solve(1)
      await settle()
      const first = await boards.get(game.id)
      const sent = Buffer.from(first.bytes)
      const release = first.retain()
      // Rebuilds while the first board is being sent: none may write into its buffer.
      const buffers = new Set<ArrayBufferLike>()
      for (let i = 0; i < 6; i++) {
        solve(i)
        await settle()
        const entry = await boards.get(game.id)
        expect(entry.etag).not.toBe(first.etag)
        expect(entry.bytes.length).toBe(sent.length)
        buffers.add(entry.bytes.buffer)
        expect(Buffer.compare(first.bytes, sent)).toBe(0)
      }
      // The other buffers were taken in turn, not allocated anew.
      expect(buffers.size).toBeLessThanOrEqual(2)
      expect(buffers.has(first.bytes.buffer)).toBe(false)
      // Released: a later rebuild takes its buffer again; the current board stays whole.
      release()
      release()
      for (let i = 0; i < 3; i++) {
        solve(i)
        await settle()
        const current = await boards.get(game.id)
        buffers.add(current.bytes.buffer)
        expect(JSON.parse(current.bytes.toString()).items).toHaveLength(players.length)
      }
      expect(buffers.has(first.bytes.buffer)).toBe(true)
    } finally {
      boards.close()
    }
  })
})
