import { randomInt, randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/index.ts'
import { flags, gameInstances } from '../../db/schema.ts'
import { generateFlag } from '../../engine/flag-template.ts'
import { gameHashSalt, teamHash } from '../../engine/team-hash.ts'
import { ChallengeTypeValues } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { ParticipationRow } from './context.ts'
import type { ChallengeRow, GameRow } from './games.queries.ts'

export type InstanceRow = typeof gameInstances.$inferSelect

/** A team's instance of a challenge (locked for update when asked); "not found" when it has none. */
export async function requireInstance(
  tx: DbOrTx,
  challengeId: number,
  participationId: number,
  opts: { lock?: boolean } = {},
): Promise<InstanceRow> {
  const query = tx
    .select()
    .from(gameInstances)
    .where(
      and(eq(gameInstances.challengeId, challengeId), eq(gameInstances.participationId, participationId)),
    )
  const [instance] = opts.lock ? await query.for('update') : await query
  if (!instance) throw fail('Game_ChallengeNotFound')
  return instance
}

/** Whether a challenge hands each team a flag of its own when first opened. */
function hasTeamFlag(c: ChallengeRow) {
  return c.type === ChallengeTypeValues.DynamicContainer || c.type === ChallengeTypeValues.DynamicAttachment
}

/**
 * Hands the team its flag the first time it opens a dynamic challenge (game-engine §3.3):
 * a generated flag for dynamic containers, a free pool flag for dynamic attachments.
 * Null when the pool is exhausted.
 */
async function dispatch(
  tx: DbOrTx,
  game: GameRow,
  c: ChallengeRow,
  p: ParticipationRow,
): Promise<InstanceRow | null> {
  let flagId: number | null = null
  if (c.type === ChallengeTypeValues.DynamicContainer) {
    const flag = generateFlag(c.flagTemplate, {
      random: randomInt,
      guid: randomUUID,
      teamHash: teamHash(gameHashSalt(game.privateKey), c.id, p.token),
    })
    const [row] = await tx.insert(flags).values({ challengeId: c.id, flag, isOccupied: true }).returning()
    flagId = row!.id
  } else if (c.type === ChallengeTypeValues.DynamicAttachment) {
    // A random free flag, locked so two teams can never be handed the same one.
    const [free] = await tx
      .select({ id: flags.id })
      .from(flags)
      .where(and(eq(flags.challengeId, c.id), eq(flags.isOccupied, false)))
      .orderBy(sql`random()`)
      .limit(1)
      .for('update', { skipLocked: true })
    if (!free) return null
    const id = free.id
    await tx.update(flags).set({ isOccupied: true }).where(eq(flags.id, id))
    flagId = id
  }
  const [row] = await tx
    .update(gameInstances)
    .set({ isLoaded: true, flagId })
    .where(and(eq(gameInstances.challengeId, c.id), eq(gameInstances.participationId, p.id)))
    .returning()
  return row!
}

/**
 * The team's instance with its flag handed out (on first use: opening the challenge or starting
 * its container). "Not found" when the team has no instance or the flag pool is exhausted.
 */
export async function loadInstance(
  db: Db,
  game: GameRow,
  c: ChallengeRow,
  participation: ParticipationRow,
): Promise<InstanceRow> {
  const instance = await requireInstance(db, c.id, participation.id)
  // Static challenges hand out no flag of the team's own: opening one writes nothing (at the
  // opening of a contest every team opens them at once, and each write is a transaction).
  if (instance.isLoaded || !hasTeamFlag(c)) return instance
  const loaded = await db.transaction(async (tx) => {
    const locked = await requireInstance(tx, c.id, participation.id, { lock: true })
    return locked.isLoaded ? locked : dispatch(tx, game, c, participation)
  })
  if (!loaded) throw fail('Game_ChallengeNotFound')
  return loaded
}
