import { and, asc, eq, lt, type SQL, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import { isDatabaseUnavailable } from '../../db/errors.ts'
import type { Db, DbOrTx } from '../../db/index.ts'
import { submissions } from '../../db/schema.ts'
import { ChallengeTypeValues } from '../../http/enums.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { NoticeService } from '../edit/notices.service.ts'
import type { AuditService } from '../logs/audit.service.ts'
import type { ScoreboardService } from './scoreboard.service.ts'

/** Tries of a blood notice lost with the database, 0.5 s, 1 s, 1.5 s … apart (~14 s in all). */
const NOTICE_RETRIES = 7
const NOTICE_RETRY_MS = 500

export const BLOODS = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const
const EVENT_FLAG_SUBMIT = 3
const EVENT_CHEAT = 4
/** Both dynamic types have bit 1 set (see `isDynamicType`). */
const DYNAMIC_BIT = ChallengeTypeValues.DynamicAttachment & ChallengeTypeValues.DynamicContainer

export type AnswerResult = 'Accepted' | 'WrongAnswer' | 'CheatDetected' | 'NotFound'

export interface Verdict {
  submissionId: number
  gameId: number
  challengeId: number
  userId: string | null
  result: AnswerResult
  /** Set when this answer was the team's first counted solve. */
  blood: (typeof BLOODS)[number] | 'Normal' | null
}

/** One locked submission with everything its judgement needs (read in one query per batch). */
interface Row {
  id: number
  answer: string
  status: string
  submitTime: number
  userId: string | null
  teamId: number
  participationId: number
  gameId: number
  challengeId: number
  gameEnd: number
  title: string
  disableBloodBonus: boolean
  teamName: string
  userName: string | null
  hasInstance: boolean
  isSolved: boolean
  /** The challenge hands each team its own flag (dynamic), so a wrong answer may be stolen. */
  teamFlags: boolean
  correct: boolean
}

interface Judged {
  row: Row
  result: AnswerResult
  blood: Verdict['blood']
  acceptedCount: number
  /** For a CheatDetected answer: the team whose flag it was. */
  owner?: string
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

/** Rows of a raw statement, read the same way from node-postgres and PGlite. */
async function query<T>(db: DbOrTx, statement: SQL): Promise<T[]> {
  const result = await db.execute(statement)
  return (result as unknown as { rows: T[] }).rows
}

/** A set of records as one JSON parameter, read back with `jsonb_to_recordset`. */
const records = (rows: object[]) => JSON.stringify(rows)

/**
 * Tells the bus what a committed judgement stored: its game events (as `record` wrote them) and
 * the submission with its final status (the monitor hub streams both).
 */
function announce(bus: Bus, { row, result, owner }: Judged, time: number) {
  const who = { user: row.userName ?? '', team: row.teamName, time }
  const event = (type: string, values: string[]) =>
    bus.publish('game.event', { gameId: row.gameId, event: { type, values, ...who } })
  if (row.hasInstance) {
    event('FlagSubmit', [
      row.correct ? 'Accepted' : 'WrongAnswer',
      row.answer,
      row.title,
      String(row.challengeId),
    ])
    if (result === 'CheatDetected' && owner) event('CheatDetected', [row.title, row.teamName, owner])
  }
  bus.publish('submission.judged', {
    gameId: row.gameId,
    submission: { answer: row.answer, status: result, challenge: row.title, ...who, time: row.submitTime },
  })
}

/**
 * Judges submitted flags in order (game-engine §5.2–5.3), in batches: whatever is queued (up
 * to `batchSize`) is judged in one transaction of a few set-based statements, so the round
 * trips per submission fall with the load.
 *
 * 1. Lock the submissions (in id order) and read each one's game, challenge, team, instance
 *    and whether the answer is right, in one query (with them, pending right answers to the
 *    same challenges submitted earlier: see `load`).
 * 2. Cheat check for the wrong answers to dynamic challenges: another team's flag.
 * 3. One statement writes the rest: the first correct answer of each unsolved instance marked
 *    solved, conditionally (`is_solved = false`): the one race-free "first solve" test, even
 *    against other workers or replicas; each challenge's atomic counter raised by its new
 *    solves (the row stays locked until commit, so the counts handed out, in submission order,
 *    are this batch's alone and bloods are granted exactly once); statuses, cheat records and
 *    events.
 * So a batch costs four round trips (begin, read, write, commit; five with dynamic flags), and
 * each waits its turn on a server busy with requests: every statement saved is time off every
 * verdict. With several servers a batch first locks the challenges whose bloods are still open.
 * Rows are locked in a fixed order (those challenges; submissions, instances, challenges; each
 * by key), so concurrent batches wait for each other instead of deadlocking; and `for no key
 * update`, as a plain update would, so recording new submissions (whose foreign keys take
 * key-share locks on the challenge) never waits for a batch. A batch that fails is judged
 * again one submission at a time, so one bad row cannot hold up the others.
 */
export function createJudge(deps: {
  db: Db
  /** Submission times, the game's end for bloods and event times come from it. */
  clock: Clock
  /** Where solves go (with several servers, onto the bus so every server's board hears them). */
  scoreboard: Pick<ScoreboardService, 'addSolve'>
  notices: NoticeService
  log: FastifyBaseLogger
  /** The admin log: solves, cheating and judging failures are kept there. */
  audit?: AuditService
  /** Hears each judged submission and its events once committed. */
  bus?: Bus
  /**
   * Other servers record and judge flags of the same contests (Redis configured): a batch then
   * locks the challenges it may count before it reads (see `lockCountedChallenges`).
   */
  severalServers?: boolean
  /** Batches judged at the same time (each takes the next submissions in order). */
  workers?: number
  batchSize?: number
  onVerdict?: (v: Verdict) => void
  /** Hears each committed verdict with its wait since submission (`/metrics`). */
  observe?: (result: AnswerResult, lagMs: number) => void
}) {
  const { db } = deps
  const batchSize = deps.batchSize ?? 256
  const queue: number[] = []
  /** The ids in `queue`: a sweep does not queue one twice. */
  const queued = new Set<number>()
  /** Ids this judge gave up on (failed twice): a sweep does not retry them every few seconds. */
  const givenUp = new Set<number>()
  /**
   * Submissions put back after the database was unreachable while they were judged: their
   * commit may have gone through with only its answer lost (see `judgeBatch`).
   */
  const recovering = new Set<number>()
  /** Submissions taken from the queue whose batch has not committed yet. */
  let judging = 0
  let active = 0
  let closed = false
  const idle: (() => void)[] = []

  /**
   * Locks and reads the batch's submissions and, with them, the pending right answers to the
   * same challenges submitted before a right answer of the batch (by time, then id), while the
   * challenge still has bloods to hand out: those of other servers' queues (or batches) that may
   * solve it first. Judged with the batch, so the counter hands out bloods in submission order
   * whichever server's batch gets there first. (A flag of the challenge may be another team's:
   * judged here all the same.) Past the third solve the order of counts changes nothing, and
   * taking other servers' flags would only make their batches wait for this one. All are
   * locked in id order, so two batches never wait on each other in a circle.
   */
  async function load(tx: Tx, ids: number[]): Promise<Row[]> {
    const batch = `{${ids.join(',')}}`
    return query<Row>(
      tx,
      sql`
      select s.id, s.answer, s.status, s.user_id "userId", s.team_id "teamId",
             s.participation_id "participationId", s.game_id "gameId", s.challenge_id "challengeId",
             floor(extract(epoch from s.submit_time_utc) * 1000)::float8 "submitTime",
             floor(extract(epoch from g.end_time_utc) * 1000)::float8 "gameEnd",
             c.title, c.disable_blood_bonus "disableBloodBonus", t.name "teamName", u.user_name "userName",
             gi.challenge_id is not null "hasInstance", coalesce(gi.is_solved, false) "isSolved",
             (gi.flag_id is not null or c.type & ${sql.raw(String(DYNAMIC_BIT))} <> 0) "teamFlags",
             case
               when gi.challenge_id is null then false
               -- Dynamic flags: only the flag handed to this team; static: any of the challenge's.
               when gi.flag_id is not null then coalesce(f.flag = s.answer, false)
               when c.type & ${sql.raw(String(DYNAMIC_BIT))} <> 0 then false
               else exists (select 1 from flags sf where sf.challenge_id = s.challenge_id and sf.flag = s.answer)
             end correct
      from submissions s
      join games g on g.id = s.game_id
      join challenges c on c.id = s.challenge_id
      join teams t on t.id = s.team_id
      left join users u on u.id = s.user_id
      left join game_instances gi on gi.challenge_id = s.challenge_id and gi.participation_id = s.participation_id
      left join flags f on f.id = gi.flag_id
      where s.id in (
        select unnest(${batch}::int[])
        union
        select e.id from submissions b
        join submissions e on e.challenge_id = b.challenge_id and e.status = 'FlagSubmitted'
          and (e.submit_time_utc, e.id) < (b.submit_time_utc, b.id)
        join challenges bc on bc.id = b.challenge_id and bc.accepted_count < ${BLOODS.length}
        where b.id = any(${batch}::int[]) and b.status = 'FlagSubmitted'
          and e.id <> all(${batch}::int[])
          and exists (select 1 from flags f where f.challenge_id = b.challenge_id and f.flag = b.answer)
          and exists (select 1 from flags f where f.challenge_id = e.challenge_id and f.flag = e.answer))
      order by s.id
      for no key update of s`,
    )
  }

  /**
   * Wrong answers that are another team's flag for the same challenge: submission → owner.
   * Only challenges that hand out team flags are looked at, and each answer costs two index
   * look-ups (the flag by challenge and text, then the instance holding it), whatever the
   * number of teams.
   */
  async function findCheats(tx: Tx, wrong: Row[]) {
    const owners = new Map<number, { participationId: number; teamName: string }>()
    if (!wrong.length) return owners
    const found = await query<{ id: number; participationId: number; teamName: string }>(
      tx,
      sql`
      select v.id, o.participation_id "participationId", o.name "teamName"
      from jsonb_to_recordset(${records(wrong.map((r) => ({ id: r.id, c: r.challengeId, p: r.participationId, a: r.answer })))}::jsonb)
           as v(id int, c int, p int, a text)
      cross join lateral (
        select gi.participation_id, t.name
        from flags f
        join game_instances gi on gi.flag_id = f.id
        join participations p on p.id = gi.participation_id
        join teams t on t.id = p.team_id
        where f.challenge_id = v.c and f.flag = v.a and gi.challenge_id = v.c and gi.participation_id <> v.p
        limit 1
      ) o`,
    )
    for (const x of found) owners.set(x.id, { participationId: x.participationId, teamName: x.teamName })
    return owners
  }

  /**
   * Writes a batch's judgement in one statement: the candidate solves' instances marked solved
   * (only those still unsolved: the one race-free "first solve" test, even against other
   * servers), each challenge's counter raised by the solves it got (its row then stays locked
   * until commit, so the counts are this batch's alone), and the statuses, cheat records and
   * events. Rows are locked instances first, then challenges, each in key order. Returns the
   * keys (`challenge:participation`) it marked solved and each challenge's new count.
   */
  async function settle(
    tx: Tx,
    candidates: Row[],
    judged: { row: Row; result: AnswerResult }[],
    owners: Map<number, { participationId: number; teamName: string }>,
  ): Promise<{ solved: Set<string>; totals: Map<number, number> }> {
    const statuses = judged.map(({ row, result }) => ({ id: row.id, s: result }))
    const cheats: object[] = []
    const events: object[] = []
    for (const { row, result } of judged) {
      if (!row.hasInstance) continue
      const base = { g: row.gameId, u: row.userId, t: row.teamId }
      events.push({
        ...base,
        k: EVENT_FLAG_SUBMIT,
        v: [row.correct ? 'Accepted' : 'WrongAnswer', row.answer, row.title, String(row.challengeId)],
      })
      const owner = owners.get(row.id)
      if (result === 'CheatDetected' && owner) {
        cheats.push({ id: row.id, g: row.gameId, p: row.participationId, o: owner.participationId })
        events.push({ ...base, k: EVENT_CHEAT, v: [row.title, row.teamName, owner.teamName] })
      }
    }
    const rows = await query<{ c: number; p: number | null; n: number | null }>(
      tx,
      sql`
      with v as (
        select * from jsonb_to_recordset(${records(candidates.map((r) => ({ c: r.challengeId, p: r.participationId })))}::jsonb)
          as v(c int, p int)
      ), unsolved as materialized (
        select gi.challenge_id, gi.participation_id from game_instances gi
        join v on gi.challenge_id = v.c and gi.participation_id = v.p
        where not gi.is_solved
        order by gi.challenge_id, gi.participation_id
        for no key update of gi
      ), solved as (
        update game_instances gi set is_solved = true from unsolved
        where gi.challenge_id = unsolved.challenge_id and gi.participation_id = unsolved.participation_id
          and not gi.is_solved
        returning gi.challenge_id c, gi.participation_id p
      ), added as (
        select c, count(*)::int k from solved group by c
      ), counters as materialized (
        select c.id from challenges c join added on added.c = c.id order by c.id for no key update of c
      ), counted as (
        update challenges c set accepted_count = c.accepted_count + added.k
        from added, counters where c.id = added.c and counters.id = added.c
        returning c.id, c.accepted_count n
      ), statuses as (
        update submissions s set status = v.s
        from jsonb_to_recordset(${records(statuses)}::jsonb) as v(id int, s text)
        where s.id = v.id
      ), cheats as (
        insert into cheat_info (submission_id, game_id, submit_participation_id, source_participation_id)
        select id, g, p, o from jsonb_to_recordset(${records(cheats)}::jsonb) as v(id int, g int, p int, o int)
      ), events as (
        insert into game_events (game_id, type, "values", publish_time_utc, user_id, team_id)
        select x.g, x.k, x.v, ${deps.clock.date().toISOString()}::timestamptz, x.u, x.t
        from jsonb_to_recordset(${records(events)}::jsonb) as x(g int, k smallint, v jsonb, u uuid, t int)
      )
      select c, p, null::int n from solved
      union all
      select id, null, n from counted`,
    )
    const solved = new Set<string>()
    const totals = new Map<number, number>()
    for (const r of rows) {
      if (r.p === null) totals.set(r.c, r.n!)
      else solved.add(`${r.c}:${r.p}`)
    }
    return { solved, totals }
  }

  /**
   * Locks the challenges a right answer in `ids` may count, in id order, before anything else
   * of the batch. A flag being recorded for one whose bloods are open holds its row shared until
   * it commits, with its time stamped after it took the row: once this returns, every flag that
   * `load` will not see carries a later time than the batch's. All of them, not only those with
   * bloods open: `settle` locks every counted challenge, after the instances, and a batch that
   * held some challenges from here and took the others there deadlocked with another server's
   * batch doing the same the other way round (seen in the three-server bench).
   */
  async function lockCountedChallenges(tx: Tx, ids: number[]) {
    await tx.execute(sql`
      select c.id from challenges c
      where c.id in (
        select s.challenge_id from submissions s
        left join game_instances gi on gi.challenge_id = s.challenge_id and gi.participation_id = s.participation_id
        left join flags f on f.id = gi.flag_id
        where s.id = any(${`{${ids.join(',')}}`}::int[]) and s.status = 'FlagSubmitted'
          and (f.flag = s.answer
            or exists (select 1 from flags sf where sf.challenge_id = s.challenge_id and sf.flag = s.answer)))
      order by c.id
      for no key update of c`)
  }

  /** Judges a batch of submissions in one transaction; returns their verdicts in id order. */
  async function judgeBatch(ids: number[]): Promise<Verdict[]> {
    /** Submissions requeued after an outage that turn out judged: the commit went through. */
    let settled: Row[] = []
    const outcome = await db.transaction(async (tx) => {
      // Only needed when another server may be recording flags for the batch's challenges:
      // one server's recorder commits its statements one after another, before it queues them.
      if (deps.severalServers) await lockCountedChallenges(tx, ids)
      const loaded = await load(tx, ids)
      if (recovering.size)
        settled = loaded.filter((r) => r.status !== 'FlagSubmitted' && recovering.has(r.id))
      const rows = loaded.filter((r) => r.status === 'FlagSubmitted')
      if (!rows.length) return []
      const owners = await findCheats(
        tx,
        rows.filter((r) => r.hasInstance && r.teamFlags && !r.correct),
      )
      const results = rows.map((row) => ({
        row,
        result: (!row.hasInstance
          ? 'NotFound'
          : row.correct
            ? 'Accepted'
            : owners.has(row.id)
              ? 'CheatDetected'
              : 'WrongAnswer') as AnswerResult,
      }))
      // The first correct answer (by submission time) of each unsolved instance before the end
      // is a candidate solve; counts go in that order, as the board orders solvers.
      const candidates = new Map<string, Row>()
      for (const r of [...rows].sort((a, b) => a.submitTime - b.submitTime || a.id - b.id)) {
        const key = `${r.challengeId}:${r.participationId}`
        if (r.correct && !r.isSolved && r.submitTime < r.gameEnd && !candidates.has(key))
          candidates.set(key, r)
      }
      const { solved, totals } = await settle(tx, [...candidates.values()], results, owners)
      const solves = [...candidates].filter(([key]) => solved.has(key)).map(([, r]) => r)
      const added = new Map<number, number>()
      for (const r of solves) added.set(r.challengeId, (added.get(r.challengeId) ?? 0) + 1)
      // Counts in submission order: the batch's solves of a challenge take its last `k` counts.
      const next = new Map([...added].map(([id, k]) => [id, totals.get(id)! - k]))
      const solveCount = new Map<Row, number>()
      for (const r of solves) {
        const n = next.get(r.challengeId)! + 1
        next.set(r.challengeId, n)
        solveCount.set(r, n)
      }
      return results.map(({ row, result }): Judged => {
        const n = solveCount.get(row)
        const blood = n === undefined ? null : (BLOODS[n - 1] ?? 'Normal')
        return { row, result, blood, acceptedCount: n ?? 0, owner: owners.get(row.id)?.teamName }
      })
    })

    for (const id of ids) recovering.delete(id)
    // Only the answer to their commit was lost: what it would have told is told now (the
    // verdict for status polls; the solve, which the board ignores if it has it already).
    for (const row of settled) {
      const result = row.status as AnswerResult
      if (result === 'Accepted' && row.submitTime < row.gameEnd)
        deps.scoreboard.addSolve(
          row.gameId,
          {
            challengeId: row.challengeId,
            participationId: row.participationId,
            userName: row.userName,
            time: row.submitTime,
            id: row.id,
          },
          0,
        )
      deps.onVerdict?.({
        submissionId: row.id,
        gameId: row.gameId,
        challengeId: row.challengeId,
        userId: row.userId,
        result,
        blood: null,
      })
    }

    const verdicts: Verdict[] = []
    const bloods: Judged[] = []
    const committedAt = deps.clock.now()
    for (const judged of outcome) {
      if (deps.bus) announce(deps.bus, judged, committedAt)
      const { row, result, blood, acceptedCount } = judged
      if (blood) {
        deps.scoreboard.addSolve(
          row.gameId,
          {
            challengeId: row.challengeId,
            participationId: row.participationId,
            userName: row.userName,
            time: row.submitTime,
            id: row.id,
          },
          acceptedCount,
        )
        // Blood notices while the game runs, and not for challenges whose bloods are off.
        if (blood !== 'Normal' && !row.disableBloodBonus && row.gameEnd > committedAt) bloods.push(judged)
      }
      // Solves and cheating are worth an admin's attention; plain wrong answers are not.
      if (blood || result === 'CheatDetected') {
        deps.audit?.write({
          level: result === 'CheatDetected' ? 'Warning' : 'Information',
          logger: 'judge',
          message:
            result === 'CheatDetected'
              ? `${row.teamName} submitted another team's flag for ${row.title} (game ${row.gameId})`
              : `${row.teamName} solved ${row.title} (game ${row.gameId}${blood === 'Normal' ? '' : `, ${blood}`})`,
          status: result === 'CheatDetected' ? 'Denied' : 'Success',
          userName: row.userName,
        })
      }
      const verdict = {
        submissionId: row.id,
        gameId: row.gameId,
        challengeId: row.challengeId,
        userId: row.userId,
        result,
        blood,
      }
      deps.onVerdict?.(verdict)
      deps.observe?.(result, committedAt - row.submitTime)
      verdicts.push(verdict)
    }
    // The judgements are committed. A notice the database refuses is logged; one lost with the
    // database (its thread restarting, a PostgreSQL restart) is tried again in the background.
    for (const { row, blood } of bloods) {
      const values = [row.teamName, row.title]
      const type = blood as (typeof BLOODS)[number]
      await deps.notices.postBlood(row.gameId, type, values).catch((err: unknown) => {
        if (isDatabaseUnavailable(err)) void postBloodLater(row.gameId, type, values, row.id)
        else deps.log.error({ err, submissionId: row.id }, 'blood notice not posted')
      })
    }
    return verdicts
  }

  /**
   * A blood notice whose first try was lost with the database, tried again while it comes back
   * (a PGlite thread restarts within a second or two; PostgreSQL's restart in the rehearsal took
   * 0.2 s). The lost try may have been stored before its answer was lost: a stored one is not
   * posted twice.
   */
  async function postBloodLater(
    gameId: number,
    type: (typeof BLOODS)[number],
    values: string[],
    submissionId: number,
  ): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, NOTICE_RETRY_MS * attempt))
      try {
        if (!(await deps.notices.has(gameId, type, values)))
          await deps.notices.postBlood(gameId, type, values)
        return
      } catch (err) {
        if (attempt >= NOTICE_RETRIES || !isDatabaseUnavailable(err)) {
          deps.log.error({ err, submissionId }, 'blood notice not posted')
          return
        }
      }
    }
  }

  /**
   * One submission on its own, tried twice (a lost race on a lock), then left for restart.
   * Returns false when the database was unreachable: nothing is given up then, the caller
   * queues it again.
   */
  async function judgeAlone(id: number): Promise<boolean> {
    try {
      await judgeBatch([id])
    } catch (err) {
      if (isDatabaseUnavailable(err)) return false
      deps.log.warn({ err, submissionId: id }, 'judging failed; retrying')
      try {
        await judgeBatch([id])
      } catch (again) {
        if (isDatabaseUnavailable(again)) return false
        givenUp.add(id)
        deps.log.error({ err: again, submissionId: id }, 'judging failed twice; left pending until restart')
        deps.audit?.write({
          level: 'Error',
          logger: 'judge',
          message: `Submission ${id} could not be judged (${String(again)}); it is judged again at restart`,
          status: 'Failed',
        })
      }
    }
    return true
  }

  /**
   * Puts submissions back at the head of the queue, in order (the database was unreachable
   * while they were judged). A batch that failed that way was rolled back, so none of them was
   * judged; if its commit went through and only the answer was lost, judging it again finds
   * it no longer `FlagSubmitted` and leaves it as it is.
   */
  function requeue(ids: number[]) {
    for (const id of ids) recovering.add(id)
    const back = ids.filter((id) => !queued.has(id))
    for (const id of back) queued.add(id)
    queue.unshift(...back)
  }

  /** Consecutive batches that found the database unreachable: the wait before the next grows. */
  let outages = 0
  const pause = () =>
    new Promise<void>((resolve) => setTimeout(resolve, Math.min(2000, 100 * 2 ** Math.min(outages++, 5))))

  async function work() {
    while (queue.length && !closed) {
      const ids = queue.splice(0, batchSize)
      for (const id of ids) queued.delete(id)
      judging += ids.length
      let unavailable = false
      try {
        await judgeBatch(ids)
        outages = 0
      } catch (err) {
        if (isDatabaseUnavailable(err)) {
          // PostgreSQL restarts or is out of reach: the whole batch waits and is judged again
          // once it answers (one by one would only fail the same way).
          deps.log.warn(
            { err: String(err), count: ids.length },
            'database unavailable; judging again shortly',
          )
          requeue(ids)
          unavailable = true
        } else {
          // One bad row must not hold up the rest: judge them one by one.
          if (ids.length > 1)
            deps.log.warn({ err, count: ids.length }, 'batch judging failed; judging one by one')
          for (let i = 0; i < ids.length; i++) {
            if (await judgeAlone(ids[i]!)) continue
            requeue(ids.slice(i))
            unavailable = true
            break
          }
        }
      } finally {
        judging -= ids.length
      }
      if (unavailable) await pause()
    }
    active--
    if (active === 0) for (const resolve of idle.splice(0)) resolve()
  }

  const workers = deps.workers ?? 1
  return {
    enqueue(id: number) {
      if (closed || queued.has(id)) return
      queued.add(id)
      queue.push(id)
      if (active < workers) {
        active++
        // Started on the next turn, so the submissions of one burst share a batch.
        setImmediate(work)
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

    /**
     * Queues the submissions left pending for longer than `olderThanMs`: those of a server that
     * died before judging them (run by one server at a time, see jobs/). Judging one twice is
     * harmless: each is locked and judged only while it is still `FlagSubmitted`.
     */
    async sweep(olderThanMs: number): Promise<number> {
      const pending = await db
        .select({ id: submissions.id })
        .from(submissions)
        .where(
          and(
            eq(submissions.status, 'FlagSubmitted'),
            lt(submissions.submitTimeUtc, new Date(deps.clock.now() - olderThanMs)),
          ),
        )
        .orderBy(asc(submissions.id))
        .limit(10_000)
      let added = 0
      for (const { id } of pending) {
        if (queued.has(id) || givenUp.has(id)) continue
        this.enqueue(id)
        added++
      }
      return added
    },

    /** Submissions waiting in this process, and those in a batch being judged (`/metrics`). */
    stats() {
      return { queued: queue.length, judging }
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
    async judgeNow(id: number): Promise<Verdict | null> {
      return (await judgeBatch([id]))[0] ?? null
    },

    /** Exposed for tests: judge these submissions now, in one batch. */
    judgeBatch,
  }
}
export type Judge = ReturnType<typeof createJudge>
