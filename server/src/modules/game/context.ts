import { and, eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/index.ts'
import { participations, userParticipations } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'
import { createMemo } from '../../infra/cache/memo.ts'
import type { SessionUser } from '../account/sessions.service.ts'
import { type GameRow, requireGame } from './games.queries.ts'

export type ParticipationRow = typeof participations.$inferSelect

/** A game the caller may see: hidden games exist only for admins (decisions.md item 9). */
export async function requireVisibleGame(
  db: DbOrTx,
  gameId: number,
  actor: SessionUser | null,
): Promise<GameRow> {
  const game = await requireGame(db, gameId)
  if (game.hidden && (actor?.role ?? 0) < 3) throw fail('Game_NotFound')
  return game
}

/** The caller's participation in a game, if any. */
export async function findOwnParticipation(
  db: DbOrTx,
  gameId: number,
  userId: string,
): Promise<ParticipationRow | undefined> {
  const [row] = await db
    .select({ p: participations })
    .from(userParticipations)
    .innerJoin(participations, eq(participations.id, userParticipations.participationId))
    .where(and(eq(userParticipations.gameId, gameId), eq(userParticipations.userId, userId)))
  return row?.p
}

export const hasEnded = (game: GameRow, now = Date.now()) => now > game.endTimeUtc.getTime()
/** Ended and not open for practice: playing routes answer 10002. */
export const isClosed = (game: GameRow, now = Date.now()) => hasEnded(game, now) && !game.practiceMode

/**
 * The participation gate (game-engine §2.2): the game exists, the caller's team joined and was
 * accepted, the game has started, and (unless `allowEnded`) it is not closed.
 */
export async function requirePlaying(
  db: DbOrTx,
  actor: SessionUser,
  gameId: number,
  opts: { allowEnded?: boolean } = {},
): Promise<{ game: GameRow; participation: ParticipationRow }> {
  const game = await requireVisibleGame(db, gameId, actor)
  const participation = await findOwnParticipation(db, gameId, actor.id)
  if (!participation) throw fail('Game_NotParticipated')
  if (participation.status !== 1) throw fail('Game_ParticipationNotAccepted')
  const now = Date.now()
  if (now < game.startTimeUtc.getTime()) throw fail('Game_NotStarted')
  if (!opts.allowEnded && isClosed(game, now)) throw fail('Game_Ended')
  return { game, participation }
}

/**
 * The participation gate with its two lookups remembered for a moment: the hot paths (opening
 * challenges, submitting flags) would otherwise read the same game and registration rows on
 * every request. Whatever changes them calls `forgetGame`.
 */
export function createPlayContext(deps: { db: DbOrTx; cacheMs?: number }) {
  const games = createMemo<number, GameRow>(deps.cacheMs ?? 2_000)
  const registrations = createMemo<string, ParticipationRow | null>(deps.cacheMs ?? 2_000)

  async function game(gameId: number) {
    let row = games.get(gameId)
    if (!row) {
      row = await requireGame(deps.db, gameId)
      games.set(gameId, row)
    }
    return row
  }

  async function registration(gameId: number, userId: string) {
    const key = `${gameId}:${userId}`
    let row = registrations.get(key)
    if (row === undefined) {
      row = (await findOwnParticipation(deps.db, gameId, userId)) ?? null
      registrations.set(key, row)
    }
    return row
  }

  return {
    async requirePlaying(actor: SessionUser, gameId: number, opts: { allowEnded?: boolean } = {}) {
      const g = await game(gameId)
      if (g.hidden && actor.role < 3) throw fail('Game_NotFound')
      const participation = await registration(gameId, actor.id)
      if (!participation) throw fail('Game_NotParticipated')
      if (participation.status !== 1) throw fail('Game_ParticipationNotAccepted')
      const now = Date.now()
      if (now < g.startTimeUtc.getTime()) throw fail('Game_NotStarted')
      if (!opts.allowEnded && isClosed(g, now)) throw fail('Game_Ended')
      return { game: g, participation }
    },

    forgetAll() {
      games.clear()
      registrations.clear()
    },

    forgetGame(gameId: number) {
      games.delete(gameId)
      registrations.deleteWhere((key) => key.startsWith(`${gameId}:`))
    },
  }
}
export type PlayContext = ReturnType<typeof createPlayContext>
