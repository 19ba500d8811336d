import { and, eq, sql } from 'drizzle-orm'
import { isDatabaseUnavailable } from '../../db/errors.ts'
import type { Db } from '../../db/index.ts'
import { challenges, containers, flags, gameInstances, submissions } from '../../db/schema.ts'
import { ChallengeCategoryValues, ChallengeTypeValues, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { presentEntry } from '../containers/containers.presenters.ts'
import type { PlayContext } from '../contest/context.ts'
import { hasClosed, hasOpened } from '../contest/games.queries.ts'
import { loadInstance } from '../contest/instances.ts'
import { presentAttachment } from '../edit/attachments.ts'
import { currentScore } from '../edit/challenges.service.ts'
import { BLOODS } from './judge.service.ts'
import type { KnownSubmission, VerdictMemo } from './verdicts.ts'

/** A flag to record: one row of the submissions table, before it has an id. */
interface Attempt {
  challengeId: number
  participationId: number
  gameId: number
  teamId: number
  userId: string
  answer: string
}

/**
 * A lone UTF-16 surrogate becomes U+FFFD, as it does when a string is sent as a text
 * parameter; JSON would carry it as an escape that PostgreSQL's jsonb refuses.
 */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')

/**
 * Counting an attempt and recording it is one statement: the instance's counter row is
 * updated atomically (so the limit holds under bursts) and the submission inserted only when
 * the update went through. Submissions that arrive while a statement is on its way are recorded
 * together by the next one, so a burst costs one round trip instead of one per flag (group
 * commit). A team's second attempt at the same challenge waits for the next statement, since
 * one statement updates a row once. Undefined: no instance, or the limit is reached.
 *
 * A submission's time is taken by the statement that records it, once it holds its rows: bloods
 * are handed out as right answers are judged, and a judge (on any server) sees only committed
 * submissions, while the board orders solvers by time. Stamped when the request arrived, a flag
 * that then waited (a busy server, a statement ahead of it, a free connection) could be
 * committed after a later one was judged first blood, and the board named another team than
 * the notice (seen with three servers). So while a challenge has bloods to hand out, the
 * statement holds its row shared from before the stamp to the commit, and the judge locks the
 * row before it looks for earlier right answers: a judge either sees this submission, or has
 * committed before it was stamped. The database's clock is read with the offset of the
 * platform's clock (zero but in tests that move time), so the time is the platform's time.
 */
function createSubmissionRecorder(db: Db, clock: Clock, scheduled: () => boolean) {
  type Waiting = { attempt: Attempt; resolve: (id: number | undefined) => void; reject: (e: unknown) => void }
  let waiting: Waiting[] = []
  let busy = false

  async function insert(group: Attempt[]): Promise<{ id: number; c: number; p: number }[]> {
    // Scheduled release: no flag before the challenge opens or from the moment it closes.
    const timed = scheduled()
    const at = clock.date().toISOString()
    const offsetMs = clock.now() - Date.now()
    const result = await db.execute(sql`
      with v as (
        select * from jsonb_to_recordset(${JSON.stringify(
          group.map((a, i) => ({
            i,
            c: a.challengeId,
            p: a.participationId,
            g: a.gameId,
            t: a.teamId,
            u: a.userId,
            a: wellFormed(a.answer),
            at,
          })),
        )}::jsonb) as v(i int, c int, p int, g int, t int, u uuid, a text, at timestamptz)
      ), bloods_open as materialized (
        -- While a challenge's bloods are still to be handed out, a judge that counts them waits
        -- for this statement to commit (and this one for that judge): see the comment above.
        select c.id from ${challenges} c where c.id in (select v.c from v) and c.accepted_count < ${BLOODS.length}
        order by c.id for share of c
      ), locked as materialized (
        -- Counter rows locked in key order, as the judge does: concurrent statements wait, never
        -- deadlock. The uncorrelated count is evaluated first: challenges are locked before instances.
        select gi.challenge_id c, gi.participation_id p from ${gameInstances} gi
        join v on gi.challenge_id = v.c and gi.participation_id = v.p
        where (select count(*) from bloods_open) >= 0
        order by 1, 2 for no key update of gi
      ), attempt as (
        update ${gameInstances} gi set submission_count = gi.submission_count + 1
        from locked, v, ${challenges} c
        where gi.challenge_id = locked.c and gi.participation_id = locked.p
          and v.c = locked.c and v.p = locked.p and c.id = v.c and c.game_id = v.g
          and (c.submission_limit = 0 or gi.submission_count < c.submission_limit)
          and (not ${timed}::boolean or ((c.open_at is null or c.open_at <= v.at)
            and (c.close_at is null or c.close_at > v.at)))
        returning v.i
      )
      insert into ${submissions} (answer, status, submit_time_utc, user_id, team_id, participation_id, game_id, challenge_id)
      select v.a, 'FlagSubmitted',
        date_trunc('milliseconds', clock_timestamp() + ${offsetMs}::float8 * interval '1 millisecond'),
        v.u, v.t, v.p, v.g, v.c
      from v join attempt on attempt.i = v.i
      order by v.i
      returning id, challenge_id c, participation_id p`)
    return (result as unknown as { rows: { id: number; c: number; p: number }[] }).rows
  }

  async function flush() {
    const taken = new Set<string>()
    const group: Waiting[] = []
    const later: Waiting[] = []
    for (const w of waiting) {
      const key = `${w.attempt.challengeId}:${w.attempt.participationId}`
      if (taken.has(key)) later.push(w)
      else {
        taken.add(key)
        group.push(w)
      }
    }
    waiting = later
    busy = true
    try {
      const rows = await insert(group.map((w) => w.attempt))
      const ids = new Map(rows.map((r) => [`${r.c}:${r.p}`, r.id]))
      for (const w of group) w.resolve(ids.get(`${w.attempt.challengeId}:${w.attempt.participationId}`))
    } catch (err) {
      // One bad row must not fail the others: record them one by one. With the database
      // unreachable every one would fail the same way: all are refused (503) at once.
      if (group.length === 1 || isDatabaseUnavailable(err)) for (const w of group) w.reject(err)
      else for (const w of group) await insert([w.attempt]).then((rows) => w.resolve(rows[0]?.id), w.reject)
    } finally {
      busy = false
      if (waiting.length) flush()
    }
  }

  return {
    record(attempt: Attempt): Promise<number | undefined> {
      return new Promise((resolve, reject) => {
        waiting.push({ attempt, resolve, reject })
        if (!busy && waiting.length === 1) flush()
      })
    },
  }
}

/**
 * How long a status poll for a flag being judged waits for its verdict before it answers
 * `FlagSubmitted`. Clients poll again after that answer, as they would anyway; a shorter wait
 * only means more polls.
 */
const VERDICT_WAIT_MS = 1000

/** What a team sees and does inside a challenge: details, flag submission, judging status. */
export function createPlayService(deps: {
  db: Db
  clock: Clock
  context: PlayContext
  enqueue: (submissionId: number) => void
  /** Recent submissions and their verdicts, filled by submit and the judge. */
  verdicts: VerdictMemo
  /** Whether scheduled release is on (challenges' `openAt` and `closeAt` count). */
  scheduled?: () => boolean
}) {
  const { db } = deps
  const scheduled = deps.scheduled ?? (() => false)
  const recorder = createSubmissionRecorder(db, deps.clock, scheduled)

  return {
    async challenge(actor: SessionUser, gameId: number, challengeId: number) {
      const { game, participation } = await deps.context.requirePlaying(actor, gameId)
      const [c] = await db
        .select()
        .from(challenges)
        .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, gameId)))
      if (!c?.isEnabled || (scheduled() && !hasOpened(c, deps.clock.now())))
        throw fail('Game_ChallengeNotFound')
      const instance = await loadInstance(db, game, c, participation)
      const [container] = instance.containerId
        ? await db.select().from(containers).where(eq(containers.id, instance.containerId))
        : []
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
          closeTime: container?.status === 1 ? container.expectStopAt.getTime() : null,
          instanceEntry: container?.status === 1 ? presentEntry(container) : null,
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
      // UTF-16 code units, as the reference counts (an emoji is two), not code points.
      if (answer.length > 127) throw fail('Model_FlagTooLong')
      const { participation } = await deps.context.requirePlaying(actor, gameId)
      const id = await recorder.record({
        challengeId,
        participationId: participation.id,
        gameId,
        teamId: participation.teamId,
        userId: actor.id,
        answer,
      })
      if (id === undefined) {
        const submitTime = deps.clock.date()
        const [instance] = await db
          .select({
            count: gameInstances.submissionCount,
            openAt: challenges.openAt,
            closeAt: challenges.closeAt,
          })
          .from(gameInstances)
          .innerJoin(challenges, eq(challenges.id, gameInstances.challengeId))
          .where(
            and(
              eq(gameInstances.challengeId, challengeId),
              eq(gameInstances.participationId, participation.id),
              eq(challenges.gameId, gameId),
            ),
          )
        if (!instance || (scheduled() && !hasOpened(instance, submitTime.getTime())))
          throw fail('Game_ChallengeNotFound')
        if (scheduled() && hasClosed(instance, submitTime.getTime())) throw fail('Challenge_Closed')
        throw fail('Challenge_SubmissionLimitExceeded')
      }
      // Known before the judge can see it, so the verdict always overwrites the pending state.
      deps.verdicts.remember(id, { userId: actor.id, gameId, challengeId, status: 'FlagSubmitted' })
      deps.enqueue(id)
      return id
    },

    /** The judging result of the caller's own submission; cheating reads as a wrong answer. */
    async status(actor: SessionUser, gameId: number, challengeId: number, submissionId: number) {
      const mine = (k: KnownSubmission | undefined) =>
        k && k.userId === actor.id && k.gameId === gameId && k.challengeId === challengeId
      let known = deps.verdicts.get(submissionId)
      if (mine(known) && known!.status === 'FlagSubmitted') {
        // Pending: answered when judged (usually within a few statements), or after the wait
        // from the database, which also covers a verdict this server did not hear of.
        if (await deps.verdicts.settled(submissionId, VERDICT_WAIT_MS)) {
          known = deps.verdicts.get(submissionId)
          if (known?.status === 'FlagSubmitted') known = undefined
        }
      }
      const [row] = known
        ? mine(known)
          ? [known]
          : []
        : await db
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
