import { and, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/index.ts'
import { participations, userParticipations } from '../../db/schema.ts'
import { isClosed as isPhaseClosed } from '../../engine/game-phase.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import { createMemo } from '../../infra/cache/memo.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { type GameRow, phaseOf, requireGame } from './games.queries.ts'

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

/** Ended and not open for practice: playing routes answer 10002. */
export const isClosed = (game: GameRow, now: number) => isPhaseClosed(phaseOf(game, now), game.practiceMode)

/** The gate's checks once the game and the caller's participation are read (steps 2 to 5). */
function passGate(
  game: GameRow,
  participation: ParticipationRow | null | undefined,
  opts: { allowEnded?: boolean },
  now: number,
): { game: GameRow; participation: ParticipationRow } {
  if (!participation) throw fail('Game_NotParticipated')
  if (participation.status !== 1) throw fail('Game_ParticipationNotAccepted')
  const phase = phaseOf(game, now)
  if (phase === 'upcoming') throw fail('Game_NotStarted')
  if (!opts.allowEnded && isPhaseClosed(phase, game.practiceMode)) throw fail('Game_Ended')
  return { game, participation }
}

/**
 * The participation gate (game-engine §2.2): the game exists, the caller's team joined and was
 * accepted, the game has started, and (unless `allowEnded`) it is not closed.
 */
export async function requirePlaying(
  db: DbOrTx,
  actor: SessionUser,
  gameId: number,
  now: number,
  opts: { allowEnded?: boolean } = {},
): Promise<{ game: GameRow; participation: ParticipationRow }> {
  const game = await requireVisibleGame(db, gameId, actor)
  return passGate(game, await findOwnParticipation(db, gameId, actor.id), opts, now)
}

/**
 * The participation gate with its two lookups remembered for a moment: the hot paths (opening
 * challenges, submitting flags) would otherwise read the same game and registration rows on
 * every request. Whatever changes them calls `forgetGame`.
 *
 * Registrations are refreshed ahead of time: a lookup served from an entry past half its age
 * queues the user for a background refresh, and the queued users of a game are read together
 * (one query per game per `cacheMs / 10`), as are the misses of one turn of the event loop. No
 * entry is served older than `cacheMs`, and a busy game costs a few queries a second instead
 * of one per player per `cacheMs`.
 */
export function createPlayContext(deps: { db: DbOrTx; clock: Clock; cacheMs?: number }) {
  const ttl = deps.cacheMs ?? 2_000
  const games = createMemo<number, GameRow>(ttl)
  /** `gameId:userId` → the participation (null: none), and when it was read. */
  const registrations = new Map<string, { value: ParticipationRow | null; at: number }>()
  /** Users to read per game: misses (answered when read) and entries to refresh. */
  type Waiting = { resolve: (row: ParticipationRow | null) => void; reject: (err: unknown) => void }
  let misses = new Map<number, Map<string, Waiting[]>>()
  let stale = new Map<number, Set<string>>()
  let missTimer: NodeJS.Immediate | null = null
  let staleTimer: NodeJS.Timeout | null = null
  /** Bumped by every forget: reads that started before it do not refill the cache. */
  let generation = 0

  const loadingGames = new Map<number, Promise<GameRow>>()

  /** The game, read once for all the requests that miss it at the same time. */
  function game(gameId: number): Promise<GameRow> | GameRow {
    const row = games.get(gameId)
    if (row) return row
    let pending = loadingGames.get(gameId)
    if (!pending) {
      const started = generation
      pending = requireGame(deps.db, gameId)
        .then((loaded) => {
          if (started === generation) games.set(gameId, loaded)
          return loaded
        })
        .finally(() => loadingGames.delete(gameId))
      loadingGames.set(gameId, pending)
    }
    return pending
  }

  /** Reads the registrations of some users of one game and remembers them. */
  async function read(gameId: number, userIds: string[]): Promise<Map<string, ParticipationRow | null>> {
    const started = { at: Date.now(), generation }
    const rows = await deps.db
      .select({ userId: userParticipations.userId, p: participations })
      .from(userParticipations)
      .innerJoin(participations, eq(participations.id, userParticipations.participationId))
      .where(and(eq(userParticipations.gameId, gameId), inArray(userParticipations.userId, userIds)))
    const found = new Map<string, ParticipationRow | null>(userIds.map((id) => [id, null]))
    for (const row of rows) if (!found.get(row.userId)) found.set(row.userId, row.p)
    if (started.generation === generation) {
      if (registrations.size >= 100_000) registrations.clear()
      for (const [userId, value] of found) registrations.set(`${gameId}:${userId}`, { value, at: started.at })
    }
    return found
  }

  function readMisses() {
    missTimer = null
    const batch = misses
    misses = new Map()
    for (const [gameId, users] of batch) {
      read(gameId, [...users.keys()]).then(
        (found) => {
          for (const [userId, waiting] of users) for (const w of waiting) w.resolve(found.get(userId) ?? null)
        },
        (err: unknown) => {
          for (const waiting of users.values()) for (const w of waiting) w.reject(err)
        },
      )
    }
  }

  function refreshStale() {
    staleTimer = null
    const batch = stale
    stale = new Map()
    for (const [gameId, users] of batch) read(gameId, [...users]).catch(() => {})
  }

  function registration(
    gameId: number,
    userId: string,
  ): Promise<ParticipationRow | null> | ParticipationRow | null {
    const key = `${gameId}:${userId}`
    const entry = registrations.get(key)
    const age = entry ? Date.now() - entry.at : Number.POSITIVE_INFINITY
    if (entry && age <= ttl) {
      if (age > ttl / 2) {
        const users = stale.get(gameId) ?? new Set<string>()
        stale.set(gameId, users)
        users.add(userId)
        if (!staleTimer) staleTimer = setTimeout(refreshStale, ttl / 10).unref()
      }
      return entry.value
    }
    return new Promise((resolve, reject) => {
      const users = misses.get(gameId) ?? new Map<string, Waiting[]>()
      misses.set(gameId, users)
      const waiting = users.get(userId)
      if (waiting) waiting.push({ resolve, reject })
      else users.set(userId, [{ resolve, reject }])
      if (!missTimer) missTimer = setImmediate(readMisses)
    })
  }

  return {
    async requirePlaying(actor: SessionUser, gameId: number, opts: { allowEnded?: boolean } = {}) {
      const g = await game(gameId)
      if (g.hidden && actor.role < 3) throw fail('Game_NotFound')
      return passGate(g, await registration(gameId, actor.id), opts, deps.clock.now())
    },

    forgetAll() {
      generation++
      games.clear()
      registrations.clear()
    },

    forgetGame(gameId: number) {
      generation++
      games.delete(gameId)
      const prefix = `${gameId}:`
      for (const key of registrations.keys()) if (key.startsWith(prefix)) registrations.delete(key)
    },
  }
}
export type PlayContext = ReturnType<typeof createPlayContext>
