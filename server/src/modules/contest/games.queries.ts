import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/index.ts'
import { challenges, games } from '../../db/schema.ts'
import { gamePhase } from '../../engine/game-phase.ts'
import { fail } from '../../http/errors.ts'

export type GameRow = typeof games.$inferSelect
export type ChallengeRow = typeof challenges.$inferSelect

export async function requireGame(db: DbOrTx, id: number): Promise<GameRow> {
  const [game] = await db.select().from(games).where(eq(games.id, id))
  if (!game) throw fail('Game_NotFound')
  return game
}

/** A challenge of this game (a challenge of another game is "not found"). */
export async function requireChallenge(
  db: DbOrTx,
  gameId: number,
  challengeId: number,
): Promise<ChallengeRow> {
  const [row] = await db.select().from(challenges).where(eq(challenges.id, challengeId))
  if (!row || row.gameId !== gameId) throw fail('Challenge_NotFound')
  return row
}

/** Where the game stands at `now` (game-engine §2.1). */
export const phaseOf = (game: Pick<GameRow, 'startTimeUtc' | 'endTimeUtc'>, now: number) =>
  gamePhase(game.startTimeUtc.getTime(), game.endTimeUtc.getTime(), now)

export const posterUrl = (hash: string | null) => (hash ? `/assets/${hash}/poster` : null)

export type Schedule = { openAt: Date | null; closeAt: Date | null }
/** Scheduled release: players see a challenge from its `openAt` (none: at once). */
export const hasOpened = (c: Schedule, now: number) => c.openAt === null || c.openAt.getTime() <= now
/** Scheduled release: flags are refused from `closeAt` on; the challenge stays visible. */
export const hasClosed = (c: Schedule, now: number) => c.closeAt !== null && c.closeAt.getTime() <= now
