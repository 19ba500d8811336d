import { and, asc, eq, ne, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/index.ts'
import {
  challenges,
  cheatInfo,
  flags,
  gameEvents,
  gameInstances,
  games,
  participations,
  submissions,
  teams,
  users,
} from '../../db/schema.ts'
import { isDynamicType } from '../../http/enums.ts'
import type { NoticeService } from '../edit/notices.service.ts'
import type { ScoreboardService } from './scoreboard.service.ts'

const BLOODS = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const
const EVENT_FLAG_SUBMIT = 3
const EVENT_CHEAT = 4

export type AnswerResult = 'Accepted' | 'WrongAnswer' | 'CheatDetected' | 'NotFound'

export interface Verdict {
  submissionId: number
  gameId: number
  result: AnswerResult
  /** Set when this answer was the team's first counted solve. */
  blood: (typeof BLOODS)[number] | 'Normal' | null
}

/**
 * Judges submitted flags in order (game-engine §5.2–5.3). Each judgement is one transaction that
 * locks the submission, the team's instance and the challenge, so a submission is judged once
 * and bloods follow the atomic solve counter: exactly one first blood, even with several
 * workers or replicas.
 */
export function createJudge(deps: {
  db: Db
  scoreboard: ScoreboardService
  notices: NoticeService
  log: FastifyBaseLogger
  workers?: number
  onVerdict?: (v: Verdict) => void
}) {
  const { db } = deps
  const queue: number[] = []
  let active = 0
  let closed = false
  const idle: (() => void)[] = []

  /** Everything one judgement reads, in one query, with the submission and instance locked. */
  async function load(tx: Parameters<Parameters<Db['transaction']>[0]>[0], id: number) {
    const rows = await tx
      .select({
        sub: submissions,
        game: { id: games.id, end: games.endTimeUtc },
        c: {
          id: challenges.id,
          title: challenges.title,
          type: challenges.type,
          disableBloodBonus: challenges.disableBloodBonus,
        },
        instance: { isSolved: gameInstances.isSolved, flagId: gameInstances.flagId },
        ownFlag: flags.flag,
        teamName: teams.name,
        userName: users.userName,
      })
      .from(submissions)
      .innerJoin(games, eq(games.id, submissions.gameId))
      .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
      .innerJoin(teams, eq(teams.id, submissions.teamId))
      .leftJoin(users, eq(users.id, submissions.userId))
      .leftJoin(
        gameInstances,
        and(
          eq(gameInstances.challengeId, submissions.challengeId),
          eq(gameInstances.participationId, submissions.participationId),
        ),
      )
      .leftJoin(flags, eq(flags.id, gameInstances.flagId))
      .where(eq(submissions.id, id))
      .for('update', { of: submissions })
    return rows[0]
  }

  async function judge(id: number): Promise<Verdict | null> {
    const outcome = await db.transaction(async (tx) => {
      const row = await load(tx, id)
      if (!row || row.sub.status !== 'FlagSubmitted') return null
      const { sub, game, c, instance } = row
      if (!instance) {
        await tx.update(submissions).set({ status: 'NotFound' }).where(eq(submissions.id, id))
        return { row, result: 'NotFound' as const, blood: null, acceptedCount: 0 }
      }

      // 1. Static flags: any of the challenge's; dynamic ones: only the flag handed to this team.
      let correct = false
      if (instance.flagId !== null) correct = row.ownFlag === sub.answer
      else if (!isDynamicType(c.type)) {
        const [match] = await tx
          .select({ id: flags.id })
          .from(flags)
          .where(and(eq(flags.challengeId, c.id), eq(flags.flag, sub.answer)))
          .limit(1)
        correct = Boolean(match)
      }

      // 2. The team's first correct answer before the end is a solve; the atomic counter decides bloods.
      let blood: Verdict['blood'] = null
      let acceptedCount = 0
      // Marking the instance solved only if it was not is the one race-free "first solve" test.
      const solved =
        correct && !instance.isSolved && sub.submitTimeUtc < game.end
          ? await tx
              .update(gameInstances)
              .set({ isSolved: true })
              .where(
                and(
                  eq(gameInstances.challengeId, c.id),
                  eq(gameInstances.participationId, sub.participationId),
                  eq(gameInstances.isSolved, false),
                ),
              )
              .returning({ challengeId: gameInstances.challengeId })
          : []
      if (solved.length) {
        const [counted] = await tx
          .update(challenges)
          .set({ acceptedCount: sql`${challenges.acceptedCount} + 1` })
          .where(eq(challenges.id, c.id))
          .returning({ acceptedCount: challenges.acceptedCount })
        acceptedCount = counted!.acceptedCount
        blood = BLOODS[acceptedCount - 1] ?? 'Normal'
      }

      // 3. A wrong answer that is another team's flag is cheating.
      let result: AnswerResult = correct ? 'Accepted' : 'WrongAnswer'
      const now = new Date()
      const events: (typeof gameEvents.$inferInsert)[] = [
        {
          gameId: game.id,
          type: EVENT_FLAG_SUBMIT,
          values: [correct ? 'Accepted' : 'WrongAnswer', sub.answer, c.title, String(c.id)],
          publishTimeUtc: now,
          userId: sub.userId,
          teamId: sub.teamId,
        },
      ]
      if (!correct) {
        const [owner] = await tx
          .select({ participationId: gameInstances.participationId, teamName: teams.name })
          .from(gameInstances)
          .innerJoin(flags, eq(flags.id, gameInstances.flagId))
          .innerJoin(participations, eq(participations.id, gameInstances.participationId))
          .innerJoin(teams, eq(teams.id, participations.teamId))
          .where(
            and(
              eq(gameInstances.challengeId, c.id),
              ne(gameInstances.participationId, sub.participationId),
              eq(flags.flag, sub.answer),
            ),
          )
          .limit(1)
        if (owner) {
          result = 'CheatDetected'
          await tx.insert(cheatInfo).values({
            submissionId: id,
            gameId: game.id,
            submitParticipationId: sub.participationId,
            sourceParticipationId: owner.participationId,
          })
          events.push({
            gameId: game.id,
            type: EVENT_CHEAT,
            values: [c.title, row.teamName, owner.teamName],
            publishTimeUtc: now,
            userId: sub.userId,
            teamId: sub.teamId,
          })
        }
      }
      await tx.update(submissions).set({ status: result }).where(eq(submissions.id, id))
      await tx.insert(gameEvents).values(events)
      return { row, result, blood, acceptedCount }
    })
    if (!outcome) return null

    const { row, result, blood } = outcome
    const { sub, game, c } = row
    if (blood) {
      deps.scoreboard.addSolve(
        game.id,
        {
          challengeId: c.id,
          participationId: sub.participationId,
          userName: row.userName,
          time: sub.submitTimeUtc.getTime(),
        },
        outcome.acceptedCount,
      )
      // Blood notices while the game runs, and not for challenges whose bloods are off.
      if (blood !== 'Normal' && !c.disableBloodBonus && game.end.getTime() > Date.now()) {
        await deps.notices.post(game.id, blood, [row.teamName, c.title])
      }
    }
    const verdict = { submissionId: id, gameId: sub.gameId, result, blood }
    deps.onVerdict?.(verdict)
    return verdict
  }

  async function work() {
    while (queue.length && !closed) {
      const id = queue.shift()!
      try {
        await judge(id)
      } catch (err) {
        // Most likely a lost race on a lock: try once more later, then leave it for restart.
        deps.log.warn({ err, submissionId: id }, 'judging failed; retrying')
        try {
          await judge(id)
        } catch (again) {
          deps.log.error({ err: again, submissionId: id }, 'judging failed twice; left pending until restart')
        }
      }
    }
    active--
    if (active === 0) for (const resolve of idle.splice(0)) resolve()
  }

  const workers = deps.workers ?? 8
  return {
    enqueue(id: number) {
      if (closed) return
      queue.push(id)
      if (active < workers) {
        active++
        void work()
      }
    },

    /** Judges whatever was left pending by a previous run. */
    async resume(): Promise<number> {
      const pending = await db
        .select({ id: submissions.id })
        .from(submissions)
        .where(eq(submissions.status, 'FlagSubmitted'))
        .orderBy(asc(submissions.id))
      for (const { id } of pending) this.enqueue(id)
      return pending.length
    },

    /** Resolves when the queue is empty (tests, shutdown). */
    drain(): Promise<void> {
      if (active === 0 && !queue.length) return Promise.resolve()
      return new Promise((resolve) => idle.push(resolve))
    },

    async close() {
      await this.drain()
      closed = true
    },

    /** Exposed for tests: judge one submission now. */
    judgeNow: judge,
  }
}
export type Judge = ReturnType<typeof createJudge>
