import { randomInt, randomUUID } from 'node:crypto'
import { and, eq, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/index.ts'
import { challenges, flags, gameInstances, submissions } from '../../db/schema.ts'
import { generateFlag } from '../../engine/flag-template.ts'
import { gameHashSalt, teamHash } from '../../engine/team-hash.ts'
import { ChallengeCategoryValues, ChallengeTypeValues, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../account/sessions.service.ts'
import { presentAttachment } from '../edit/attachments.ts'
import { currentScore } from '../edit/challenges.service.ts'
import type { ParticipationRow, PlayContext } from './context.ts'
import type { ChallengeRow, GameRow } from './games.queries.ts'

export type InstanceRow = typeof gameInstances.$inferSelect

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
  instance: InstanceRow,
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

/** What a team sees and does inside a challenge: details, flag submission, judging status. */
export function createPlayService(deps: {
  db: Db
  context: PlayContext
  enqueue: (submissionId: number) => void
}) {
  const { db } = deps

  async function requireInstance(
    tx: DbOrTx,
    challengeId: number,
    participationId: number,
    opts: { lock?: boolean } = {},
  ) {
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

  return {
    async challenge(actor: SessionUser, gameId: number, challengeId: number) {
      const { game, participation } = await deps.context.requirePlaying(actor, gameId)
      const [c] = await db
        .select()
        .from(challenges)
        .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, gameId)))
      if (!c?.isEnabled) throw fail('Game_ChallengeNotFound')
      let instance = await requireInstance(db, c.id, participation.id)
      if (!instance.isLoaded) {
        const loaded = await db.transaction(async (tx) => {
          const locked = await requireInstance(tx, c.id, participation.id, { lock: true })
          return locked.isLoaded ? locked : dispatch(tx, game, c, participation, locked)
        })
        if (!loaded) throw fail('Game_ChallengeNotFound')
        instance = loaded
      }
      let attachment = await presentAttachment(db, c.attachmentId)
      if (c.type === ChallengeTypeValues.DynamicAttachment && instance.flagId !== null) {
        const [flag] = await db.select().from(flags).where(eq(flags.id, instance.flagId))
        attachment = await presentAttachment(db, flag?.attachmentId ?? null, c.fileName)
      }
      return {
        id: c.id,
        title: c.title,
        content: c.content,
        category: nameOf(ChallengeCategoryValues, c.category),
        hints: c.hints,
        score: currentScore(c),
        type: nameOf(ChallengeTypeValues, c.type),
        context: {
          closeTime: null,
          instanceEntry: null,
          url: attachment?.url ?? null,
          fileSize: attachment?.fileSize ?? null,
        },
        limit: c.submissionLimit,
        attempts: instance.submissionCount,
      }
    },

    /** Records a flag for judging and returns its submission id (game-engine §5.1). */
    async submit(actor: SessionUser, gameId: number, challengeId: number, flag: string): Promise<number> {
      const answer = flag.trim()
      if (!answer) throw fail('Model_FlagRequired')
      if ([...answer].length > 127) throw fail('Model_FlagTooLong')
      const submitTime = new Date()
      const { participation } = await deps.context.requirePlaying(actor, gameId)
      const [c] = await db
        .select({ id: challenges.id, limit: challenges.submissionLimit })
        .from(challenges)
        .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, gameId)))
      if (!c) throw fail('Game_ChallengeNotFound')
      // Counting the attempt and recording it is one statement: no transaction round trips, and
      // the limit holds under bursts because the counter row is updated atomically.
      const result = await db.execute<{ id: number }>(sql`
        with attempt as (
          update ${gameInstances} set submission_count = submission_count + 1
          where challenge_id = ${challengeId} and participation_id = ${participation.id}
            and (${c.limit} = 0 or submission_count < ${c.limit})
          returning challenge_id
        )
        insert into ${submissions} (answer, status, submit_time_utc, user_id, team_id, participation_id, game_id, challenge_id)
        select ${answer}, 'FlagSubmitted', ${submitTime.toISOString()}::timestamptz, ${actor.id}, ${participation.teamId},
               ${participation.id}, ${gameId}, challenge_id from attempt
        returning id`)
      const rows = (result as unknown as { rows: { id: number }[] }).rows
      const id = rows[0]?.id
      if (id === undefined) {
        const [instance] = await db
          .select({ count: gameInstances.submissionCount })
          .from(gameInstances)
          .where(
            and(
              eq(gameInstances.challengeId, challengeId),
              eq(gameInstances.participationId, participation.id),
            ),
          )
        throw fail(instance ? 'Challenge_SubmissionLimitExceeded' : 'Game_ChallengeNotFound')
      }
      deps.enqueue(id)
      return id
    },

    /** The judging result of the caller's own submission; cheating reads as a wrong answer. */
    async status(actor: SessionUser, gameId: number, challengeId: number, submissionId: number) {
      const [row] = await db
        .select({ status: submissions.status })
        .from(submissions)
        .where(
          and(
            eq(submissions.id, submissionId),
            eq(submissions.gameId, gameId),
            eq(submissions.challengeId, challengeId),
            eq(submissions.userId, actor.id),
          ),
        )
      if (!row) throw fail('Submission_NotFound')
      return row.status === 'CheatDetected' ? 'WrongAnswer' : row.status
    },
  }
}
export type PlayService = ReturnType<typeof createPlayService>
