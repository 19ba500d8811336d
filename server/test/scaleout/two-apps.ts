import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import { acceptedPlayer, adminAgent, createGame, staticChallenge, type TestUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/** Two apps share a database only on PostgreSQL: without it these tests are skipped. */
export const twoAppsReady = !!process.env.TEST_DATABASE_URL

/**
 * Two servers (apps) on one PostgreSQL and one Redis, as behind a round-robin proxy, with a game,
 * a static challenge of `flag` and `players` accepted teams. Its own Redis key prefix keeps
 * parallel runs apart; `close` stops both and removes its keys.
 */
export async function twoApps(opts: { flag: string; players: number }) {
  const prefix = `pennant-t-${randomBytes(4).toString('hex')}:`
  const a: TestApp = await createTestApp({ REDIS_URL, REDIS_PREFIX: prefix })
  const b: TestApp = await createTestApp({ REDIS_URL, REDIS_PREFIX: prefix }, {}, { url: a.databaseUrl })
  const admin = await adminAgent(a.app)
  const game: { id: number } = await createGame(admin)
  const challenge: { id: number } = await staticChallenge(admin, game.id, opts.flag)
  const players: (TestUser & { teamId: number })[] = await Promise.all(
    Array.from({ length: opts.players }, () => acceptedPlayer(a.app, admin, game.id)),
  )
  const close = async () => {
    await b.close()
    await a.close()
    const redis = new Redis(REDIS_URL)
    const keys = await redis.keys(`${prefix}*`)
    if (keys.length) await redis.del(...keys)
    await redis.quit()
  }
  return { a, b, prefix, game, challenge, players, close }
}

/** The player's browser talking to server `t` (the proxy may send any request to either). */
export function as(t: TestApp, player: TestUser): Agent {
  const agent = new Agent(t.app, player.agent.ip)
  for (const [k, v] of player.agent.cookies) agent.cookies.set(k, v)
  return agent
}
