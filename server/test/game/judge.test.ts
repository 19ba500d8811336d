import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DatabaseUnavailable } from '../../src/db/errors.ts'
import {
  challenges,
  cheatInfo,
  flags,
  gameEvents,
  gameInstances,
  participations,
  submissions,
  teams,
  users,
} from '../../src/db/schema.ts'
import { createJudge } from '../../src/modules/game/judge.service.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  eventually,
  staticChallenge,
  type TestUser,
} from '../factories.ts'
import type { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

type Player = TestUser & { teamId: number; userId: string; participationId: number }

/** Accepted players with the ids a submission row needs. */
async function players(gameId: number, count: number): Promise<Player[]> {
  const list: Player[] = []
  for (let i = 0; i < count; i++) {
    const p = await acceptedPlayer(t.app, admin, gameId)
    const [user] = await t.app.deps.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.normalizedUserName, p.userName.toLowerCase()))
    const [part] = await t.app.deps.db
      .select({ id: participations.id })
      .from(participations)
      .where(and(eq(participations.gameId, gameId), eq(participations.teamId, p.teamId)))
    list.push({ ...p, userId: user!.id, participationId: part!.id })
  }
  return list
}

/**
 * Submissions written straight to the table, pending, without the app's own judge seeing
 * them: the test decides how they are batched.
 */
async function pending(
  gameId: number,
  challengeId: number,
  rows: { player: Player; answer: string; time?: Date }[],
): Promise<number[]> {
  const inserted = await t.app.deps.db
    .insert(submissions)
    .values(
      rows.map(({ player, answer, time }) => ({
        answer,
        status: 'FlagSubmitted' as const,
        submitTimeUtc: time ?? new Date(),
        userId: player.userId,
        teamId: player.teamId,
        participationId: player.participationId,
        gameId,
        challengeId,
      })),
    )
    .returning({ id: submissions.id })
  return inserted.map((r) => r.id)
}

/** A judge of its own, as another worker or replica would run. */
const newJudge = () =>
  createJudge({
    db: t.app.deps.db,
    clock: t.app.deps.clock,
    scoreboard: t.app.deps.services.scoreboard,
    notices: t.app.deps.services.notices,
    log: t.app.log,
  })

const statuses = async (ids: number[]) =>
  (
    await t.app.deps.db
      .select({ id: submissions.id, status: submissions.status })
      .from(submissions)
      .where(inArray(submissions.id, ids))
      .orderBy(asc(submissions.id))
  ).map((r) => r.status)

describe('judging in batches', () => {
  it('judges correct, wrong and stolen answers of several teams together, bloods in submission order', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { type: 'DynamicContainer', category: 'Pwn' })
    await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, {
      flagTemplate: 'flag{[GUID]}',
      isEnabled: true,
    })
    const [a, b, d, e, f] = (await players(game.id, 5)) as [Player, Player, Player, Player, Player]
    // Opening the challenge hands each team its flag.
    for (const p of [a, b, d, e, f]) await p.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    const handed = await t.app.deps.db
      .select({ flag: flags.flag, participationId: gameInstances.participationId })
      .from(gameInstances)
      .innerJoin(flags, eq(flags.id, gameInstances.flagId))
      .where(eq(gameInstances.challengeId, c.id))
    const flagOf = (p: Player) => handed.find((x) => x.participationId === p.participationId)!.flag

    const ids = await pending(game.id, c.id, [
      { player: a, answer: 'flag{nope}' }, // wrong
      { player: b, answer: flagOf(b) }, // first blood
      { player: d, answer: flagOf(a) }, // a's flag: cheating
      { player: a, answer: flagOf(a) }, // second blood
      { player: b, answer: flagOf(b) }, // right again: accepted, no new solve
      { player: e, answer: flagOf(e), time: new Date(Date.now() + 48 * 3600_000) }, // after the end
      { player: d, answer: flagOf(d) }, // third blood
      { player: f, answer: flagOf(f) }, // normal
    ])
    const verdicts = await newJudge().judgeBatch(ids)
    expect(verdicts.map((v) => [v.result, v.blood])).toEqual([
      ['WrongAnswer', null],
      ['Accepted', 'FirstBlood'],
      ['CheatDetected', null],
      ['Accepted', 'SecondBlood'],
      ['Accepted', null],
      ['Accepted', null],
      ['Accepted', 'ThirdBlood'],
      ['Accepted', 'Normal'],
    ])
    expect(await statuses(ids)).toEqual([
      'WrongAnswer',
      'Accepted',
      'CheatDetected',
      'Accepted',
      'Accepted',
      'Accepted',
      'Accepted',
      'Accepted',
    ])
    const [counted] = await t.app.deps.db
      .select({ n: challenges.acceptedCount })
      .from(challenges)
      .where(eq(challenges.id, c.id))
    expect(counted!.n).toBe(4)
    const cheats = await t.app.deps.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id))
    expect(cheats).toEqual([
      {
        submissionId: ids[2],
        gameId: game.id,
        submitParticipationId: d.participationId,
        sourceParticipationId: a.participationId,
      },
    ])
    const events = await t.app.deps.db
      .select({ type: gameEvents.type, values: gameEvents.values, teamId: gameEvents.teamId })
      .from(gameEvents)
      .where(eq(gameEvents.gameId, game.id))
      .orderBy(asc(gameEvents.id))
    expect(events.map((x) => [x.type, x.values[0], x.teamId])).toEqual([
      [3, 'WrongAnswer', a.teamId],
      [3, 'Accepted', b.teamId],
      [3, 'WrongAnswer', d.teamId],
      [4, c.title, d.teamId],
      [3, 'Accepted', a.teamId],
      [3, 'Accepted', b.teamId],
      [3, 'Accepted', e.teamId],
      [3, 'Accepted', d.teamId],
      [3, 'Accepted', f.teamId],
    ])
    const names = await t.app.deps.db
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(inArray(teams.id, [a.teamId, d.teamId]))
    const nameOf = (p: Player) => names.find((x) => x.id === p.teamId)!.name
    expect(events[3]!.values).toEqual([c.title, nameOf(d), nameOf(a)])

    // The board shows the solves before the end, bloods in order; the notices name them.
    const board = await eventually(async () => {
      const s = (await admin.get(`/api/game/${game.id}/scoreboard`)).json()
      expect(s.challenges.Pwn[0].solved).toBe(4)
      return s
    })
    expect(board.challenges.Pwn[0].bloods.map((x: { id: number }) => x.id)).toEqual([
      b.teamId,
      a.teamId,
      d.teamId,
    ])
    const notices = (await a.agent.get(`/api/game/${game.id}/notices`)).json()
    expect(
      notices.filter((n: { type: string }) => n.type.endsWith('Blood')).map((n: { type: string }) => n.type),
    ).toEqual(['ThirdBlood', 'SecondBlood', 'FirstBlood'])
  })

  it('judges the rest of a batch when one submission cannot be judged', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{ok}')
    const [a, b, d] = (await players(game.id, 3)) as [Player, Player, Player]
    // A row the database refuses to judge: its status update fails.
    await t.app.deps.db.execute(
      sql.raw(`create or replace function judge_test_refuse() returns trigger language plpgsql as $$
      begin
        if new.answer = 'flag{boom}' and new.status <> 'FlagSubmitted' then raise exception 'refused'; end if;
        return new;
      end $$`),
    )
    await t.app.deps.db.execute(
      sql.raw(`create trigger judge_test_refuse before update on submissions
        for each row execute function judge_test_refuse();`),
    )
    try {
      const ids = await pending(game.id, c.id, [
        { player: a, answer: 'flag{ok}' },
        { player: b, answer: 'flag{boom}' },
        { player: d, answer: 'flag{ok}' },
      ])
      const judge = newJudge()
      for (const id of ids) judge.enqueue(id)
      await judge.drain()
      expect(await statuses(ids)).toEqual(['Accepted', 'FlagSubmitted', 'Accepted'])
      const [counted] = await t.app.deps.db
        .select({ n: challenges.acceptedCount })
        .from(challenges)
        .where(eq(challenges.id, c.id))
      expect(counted!.n).toBe(2)
    } finally {
      await t.app.deps.db.execute(sql.raw('drop trigger judge_test_refuse on submissions'))
    }
  })

  it('judges at start what a previous run left pending, in batches', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{left}')
    const teams = await players(game.id, 3)
    const ids = await pending(
      game.id,
      c.id,
      teams.flatMap((player) => [
        { player, answer: 'flag{nope}' },
        { player, answer: 'flag{left}' },
      ]),
    )
    const verdicts: number[] = []
    const judge = createJudge({
      db: t.app.deps.db,
      clock: t.app.deps.clock,
      scoreboard: t.app.deps.services.scoreboard,
      notices: t.app.deps.services.notices,
      log: t.app.log,
      batchSize: 4,
      onVerdict: (v) => verdicts.push(v.submissionId),
    })
    expect(await judge.resume()).toBeGreaterThanOrEqual(ids.length)
    await judge.drain()
    expect(await statuses(ids)).toEqual(teams.flatMap(() => ['WrongAnswer', 'Accepted']))
    // In submission order, whatever the batches.
    const ours = verdicts.filter((id) => ids.includes(id))
    expect(ours).toEqual(ids)
  })

  it("sweeps up what a dead server left pending, leaving recent submissions to their own server's judge", async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{orphan}')
    const [player] = await players(game.id, 1)
    const old = new Date(Date.now() - 60_000)
    const orphans = await pending(game.id, c.id, [
      { player: player!, answer: 'flag{nope}', time: old },
      { player: player!, answer: 'flag{orphan}', time: old },
    ])
    const [recent] = await pending(game.id, c.id, [{ player: player!, answer: 'flag{recent}' }])
    const judge = newJudge()
    expect(await judge.sweep(10_000)).toBeGreaterThanOrEqual(2)
    await judge.drain()
    expect(await statuses(orphans)).toEqual(['WrongAnswer', 'Accepted'])
    expect(await statuses([recent!])).toEqual(['FlagSubmitted'])
    // Judged ones are not swept again.
    expect(await judge.sweep(10_000)).toBe(0)
    await judge.judgeNow(recent!)
  })

  it('grants each blood once when two judges take overlapping batches at the same time', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{race}')
    const c2 = await staticChallenge(admin, game.id, 'flag{race2}')
    const teams = await players(game.id, 8)
    const ids = await pending(
      game.id,
      c.id,
      teams.flatMap((player) => [
        { player, answer: 'flag{race}' },
        { player, answer: 'flag{race}' },
      ]),
    )
    const ids2 = await pending(
      game.id,
      c2.id,
      teams.map((player) => ({ player, answer: 'flag{race2}' })),
    )
    // Both judges see every submission (two replicas re-queueing at start), in different batches.
    const all = [...ids, ...ids2]
    const [one, two] = [newJudge(), newJudge()]
    const [v1, v2] = await Promise.all([
      one.judgeBatch(all),
      (async () => {
        const out = []
        for (let i = 0; i < all.length; i += 3) out.push(...(await two.judgeBatch(all.slice(i, i + 3))))
        return out
      })(),
    ])
    // Each submission was judged exactly once, by one judge or the other.
    const judged = [...v1, ...v2].map((v) => v.submissionId).sort((x, y) => x - y)
    expect(judged).toEqual(all)
    for (const [challengeId, list] of [
      [c.id, ids],
      [c2.id, ids2],
    ] as const) {
      const verdicts = [...v1, ...v2].filter((v) => list.includes(v.submissionId))
      const bloods = verdicts.map((v) => v.blood).filter((x) => x !== null)
      expect(bloods.filter((x) => x === 'FirstBlood')).toHaveLength(1)
      expect(bloods.filter((x) => x === 'SecondBlood')).toHaveLength(1)
      expect(bloods.filter((x) => x === 'ThirdBlood')).toHaveLength(1)
      expect(bloods).toHaveLength(8)
      const [counted] = await t.app.deps.db
        .select({ n: challenges.acceptedCount })
        .from(challenges)
        .where(eq(challenges.id, challengeId))
      expect(counted!.n).toBe(8)
    }
    expect((await statuses(all)).every((s) => s === 'Accepted')).toBe(true)
    const events = await t.app.deps.db.select().from(gameEvents).where(eq(gameEvents.gameId, game.id))
    expect(events).toHaveLength(all.length)
  })

  it('gives bloods in submission order when a later solve is judged first, as on another server', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{order}')
    const [x, y, z] = (await players(game.id, 3)) as [Player, Player, Player]
    const at = Date.now() - 5000
    // x solved first, then y and z; server A's queue holds x's, servers B and C's the others.
    const [early] = await pending(game.id, c.id, [{ player: x, answer: 'flag{order}', time: new Date(at) }])
    const [wrong, late] = await pending(game.id, c.id, [
      { player: z, answer: 'flag{not-it}', time: new Date(at + 5) },
      { player: y, answer: 'flag{order}', time: new Date(at + 10) },
    ])
    const [latest] = await pending(game.id, c.id, [
      { player: z, answer: 'flag{order}', time: new Date(at + 20) },
    ])
    // B's batch comes round first: it judges x's earlier solve with its own, in time order
    // (not z's wrong answer, nor the later solve C holds).
    const b = await newJudge().judgeBatch([late!])
    expect(b.map((v) => [v.submissionId, v.blood])).toEqual([
      [early, 'FirstBlood'],
      [late, 'SecondBlood'],
    ])
    expect(await statuses([wrong!, latest!])).toEqual(['FlagSubmitted', 'FlagSubmitted'])
    // A's batch then finds x's already judged; C's judges its own.
    expect(await newJudge().judgeBatch([early!])).toEqual([])
    expect((await newJudge().judgeBatch([wrong!, latest!])).map((v) => v.blood)).toEqual([null, 'ThirdBlood'])

    // What players see: the board and the notices name the same teams, in solving order.
    const names = await t.app.deps.db
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(inArray(teams.id, [x.teamId, y.teamId, z.teamId]))
    const nameOf = (p: Player) => names.find((n) => n.id === p.teamId)!.name
    const board = await eventually(async () => {
      const s = (await admin.get(`/api/game/${game.id}/scoreboard`)).json()
      expect(s.challenges.Web[0].solved).toBe(3)
      return s
    })
    expect(board.challenges.Web[0].bloods.map((b: { name: string }) => b.name)).toEqual([x, y, z].map(nameOf))
    const notices = (await x.agent.get(`/api/game/${game.id}/notices`)).json() as {
      type: string
      values: string[]
    }[]
    expect(
      notices
        .filter((n) => n.type.endsWith('Blood'))
        .map((n) => [n.type, n.values[0]])
        .reverse(),
    ).toEqual([
      ['FirstBlood', nameOf(x)],
      ['SecondBlood', nameOf(y)],
      ['ThirdBlood', nameOf(z)],
    ])
  })
})

describe('blood notices', () => {
  it('posts a blood notice lost with the database once it is back, and not twice when the lost try was stored', async () => {
    const game = await createGame(admin)
    const lost = await staticChallenge(admin, game.id, 'flag{lost}')
    const stored = await staticChallenge(admin, game.id, 'flag{stored}')
    const [player] = await players(game.id, 1)
    const real = t.app.deps.services.notices
    // The database goes away under the first try: before it stores the notice (first
    // challenge), or after storing it but before answering (second).
    const failedOnce = new Set<string>()
    const notices: typeof real = {
      ...real,
      postBlood: async (gameId, type, values) => {
        const title = values[1]!
        if (failedOnce.has(title)) return real.postBlood(gameId, type, values)
        failedOnce.add(title)
        if (title === stored.title) await real.postBlood(gameId, type, values)
        throw new DatabaseUnavailable('the PGlite thread was lost')
      },
    }
    const judge = createJudge({
      db: t.app.deps.db,
      clock: t.app.deps.clock,
      scoreboard: t.app.deps.services.scoreboard,
      notices,
      log: t.app.log,
    })
    const ids = await pending(game.id, lost.id, [{ player: player!, answer: 'flag{lost}' }])
    ids.push(...(await pending(game.id, stored.id, [{ player: player!, answer: 'flag{stored}' }])))
    for (const id of ids) await judge.judgeNow(id)
    expect(await statuses(ids)).toEqual(['Accepted', 'Accepted'])
    const bloodNotices = async () =>
      (await player!.agent.get(`/api/game/${game.id}/notices`))
        .json()
        .filter((n: { type: string }) => n.type === 'FirstBlood')
        .map((n: { values: string[] }) => n.values[1])
        .sort()
    // The judge tries again 0.5 s after the loss, on real time.
    await eventually(async () => expect(await bloodNotices()).toEqual([lost.title, stored.title].sort()))
  })
})

describe('recording submissions', () => {
  it('refuses an answer the database cannot store (a lone surrogate) with a 400, and judges the others', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{\uFFFD}')
    const [a, b] = (await players(game.id, 2)) as [Player, Player]
    const [lone, fine] = await Promise.all([
      a.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{\uD800}' }),
      b.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{\uD83D\uDE00}' }),
    ])
    expect([lone.statusCode, fine.statusCode]).toEqual([400, 200])
    expect(lone.json().title).toMatch(/flag/)
    await t.app.deps.services.judge.drain()
    const rows = await t.app.deps.db
      .select({ answer: submissions.answer, status: submissions.status })
      .from(submissions)
      .where(eq(submissions.gameId, game.id))
    expect(rows.map((r) => [r.answer, r.status])).toEqual([['flag{\uD83D\uDE00}', 'WrongAnswer']])
  })

  it('holds the submission limit under a burst from one team, and records the others', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{burst}', { submissionLimit: 3 })
    const [a, b] = (await players(game.id, 2)) as [Player, Player]
    const post = (p: Player, flag: string) =>
      p.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag })
    const responses = await Promise.all([
      ...Array.from({ length: 6 }, (_, i) => post(a, `no${i}`)),
      post(b, 'flag{burst}'),
      b.agent.post(`/api/game/${game.id}/challenges/999999`, { flag: 'x' }),
    ])
    const codes = responses.map((r) => r.statusCode)
    expect(codes.slice(0, 6).filter((x) => x === 200)).toHaveLength(3)
    expect(
      responses
        .slice(0, 6)
        .filter((r) => r.statusCode === 400)
        .map((r) => r.json().title),
    ).toEqual(Array(3).fill('Your team has used all its attempts at this challenge'))
    expect(codes.slice(6)).toEqual([200, 404])
    const ids = responses.filter((r) => r.statusCode === 200).map((r) => r.json() as number)
    expect(new Set(ids).size).toBe(4)
    await t.app.deps.services.judge.drain()
    const rows = await t.app.deps.db
      .select({ id: submissions.id, status: submissions.status, teamId: submissions.teamId })
      .from(submissions)
      .where(eq(submissions.challengeId, c.id))
    expect(rows.map((r) => r.id).sort((x, y) => x - y)).toEqual([...ids].sort((x, y) => x - y))
    expect(rows.filter((r) => r.teamId === b.teamId).map((r) => r.status)).toEqual(['Accepted'])
    const [instance] = await t.app.deps.db
      .select({ n: gameInstances.submissionCount })
      .from(gameInstances)
      .where(and(eq(gameInstances.challengeId, c.id), eq(gameInstances.participationId, a.participationId)))
    expect(instance!.n).toBe(3)
  })
})
