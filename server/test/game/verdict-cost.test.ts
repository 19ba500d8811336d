import { and, eq, sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { flags, gameInstances, participations, submissions, users } from '../../src/db/schema.ts'
import { createJudge } from '../../src/modules/game/judge.service.ts'
import {
  acceptedPlayer,
  adminAgent,
  createChallenge,
  createGame,
  eventually,
  staticChallenge,
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

/** Statements the app sends while `work` runs. */
async function queriesOf(work: () => Promise<unknown>): Promise<number> {
  const before = t.queries()
  await work()
  return t.queries() - before
}

/** `n` more accepted teams of one player, each with an instance (and its own flag for dynamic challenges). */
async function addTeams(gameId: number, n: number, tag: string) {
  const db = t.app.deps.db
  await db.execute(sql`
    insert into users (id, user_name, normalized_user_name, email, normalized_email, email_confirmed, password_hash)
    select gen_random_uuid(), ${tag} || i, ${tag} || i, ${tag} || i || '@bulk.test', ${tag} || i || '@bulk.test', true, 'x'
    from generate_series(1, ${n}::int) i`)
  await db.execute(sql`
    insert into teams (name, invite_token, captain_id)
    select 'T ' || u.user_name, md5(u.user_name), u.id from users u where u.user_name like ${`${tag}%`}`)
  await db.execute(sql`
    insert into participations (game_id, team_id, status, token)
    select ${gameId}::int, t.id, 1, t.id || ':bulk' from teams t join users u on u.id = t.captain_id
    where u.user_name like ${`${tag}%`}`)
  await db.execute(sql`
    insert into game_instances (challenge_id, participation_id, is_loaded)
    select c.id, p.id, true from challenges c cross join participations p
    where c.game_id = ${gameId}::int and p.game_id = ${gameId}::int
    on conflict do nothing`)
  // Every dynamic instance without a flag gets one of its own.
  await db.execute(sql`
    with f as (
      insert into flags (challenge_id, flag, is_occupied)
      select gi.challenge_id, 'flag{team_' || gi.participation_id || '}', true
      from game_instances gi join challenges c on c.id = gi.challenge_id
      where c.game_id = ${gameId}::int and c.type = 3 and gi.flag_id is null
      returning id, challenge_id, flag
    )
    update game_instances gi set flag_id = f.id from f
    where gi.challenge_id = f.challenge_id and f.flag = 'flag{team_' || gi.participation_id || '}'`)
}

describe('the cost of a verdict', () => {
  it('judges a wrong flag with 6 000 teams in no more queries than with 10', async () => {
    const game = await createGame(admin)
    const dynamic = await createChallenge(admin, game.id, { type: 'DynamicContainer', category: 'Pwn' })
    await admin.put(`/api/edit/games/${game.id}/challenges/${dynamic.id}`, {
      flagTemplate: 'flag{[GUID]}',
      isEnabled: true,
    })
    const fixed = await staticChallenge(admin, game.id, 'flag{static}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    const [user] = await t.app.deps.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.normalizedUserName, player.userName.toLowerCase()))
    const [part] = await t.app.deps.db
      .select({ id: participations.id })
      .from(participations)
      .where(and(eq(participations.gameId, game.id), eq(participations.teamId, player.teamId)))
    // Opening the dynamic challenge hands the player's team its flag.
    expect((await player.agent.get(`/api/game/${game.id}/challenges/${dynamic.id}`)).statusCode).toBe(200)

    // A judge of its own takes submissions written straight to the table, so the count holds
    // only what judging costs.
    const judge = createJudge({
      db: t.app.deps.db,
      clock: t.app.deps.clock,
      scoreboard: t.app.deps.services.scoreboard,
      notices: t.app.deps.services.notices,
      log: t.app.log,
    })
    async function judged(challengeId: number, answer: string) {
      const [row] = await t.app.deps.db
        .insert(submissions)
        .values({
          answer,
          status: 'FlagSubmitted',
          submitTimeUtc: new Date(),
          userId: user!.id,
          teamId: player.teamId,
          participationId: part!.id,
          gameId: game.id,
          challengeId,
        })
        .returning({ id: submissions.id })
      let result: string | undefined
      const queries = await queriesOf(async () => {
        result = (await judge.judgeNow(row!.id))?.result
      })
      return { result, queries }
    }

    await addTeams(game.id, 9, `few${game.id}x`)
    const few = {
      dynamic: await judged(dynamic.id, 'flag{nope}'),
      fixed: await judged(fixed.id, 'flag{nope}'),
    }
    await addTeams(game.id, 5990, `many${game.id}x`)
    const [{ n } = { n: 0 }] = await t.app.deps.db
      .select({ n: sql<number>`count(*)::int` })
      .from(gameInstances)
      .where(eq(gameInstances.challengeId, dynamic.id))
    expect(n).toBe(6000)
    const many = {
      dynamic: await judged(dynamic.id, 'flag{nope}'),
      fixed: await judged(fixed.id, 'flag{nope}'),
    }
    expect([few.dynamic.result, few.fixed.result, many.dynamic.result, many.fixed.result]).toEqual([
      'WrongAnswer',
      'WrongAnswer',
      'WrongAnswer',
      'WrongAnswer',
    ])
    expect(many.dynamic.queries).toBeGreaterThan(0)
    expect(many.dynamic.queries).toBeLessThanOrEqual(few.dynamic.queries)
    expect(many.fixed.queries).toBeLessThanOrEqual(few.fixed.queries)
    // A static challenge hands out no team flags: no cheat check at all.
    expect(many.fixed.queries).toBeLessThan(many.dynamic.queries)

    // Among 6 000 teams, another team's flag is still found, and named.
    const [other] = await t.app.deps.db
      .select({ flag: flags.flag })
      .from(flags)
      .where(and(eq(flags.challengeId, dynamic.id), sql`${flags.flag} like 'flag{team_%'`))
      .limit(1)
    expect((await judged(dynamic.id, other!.flag)).result).toBe('CheatDetected')
  }, 120_000)

  it('answers the status of a judged submission without the database', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{known}')
    const [a, b] = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
    const base = `/api/game/${game.id}/challenges/${c.id}`
    const status = (player: typeof a, id: number) => player.agent.get(`${base}/status/${id}`)

    for (const [flag, verdict] of [
      ['flag{wrong}', 'WrongAnswer'],
      ['flag{known}', 'Accepted'],
    ] as const) {
      const submitted = await a.agent.post(base, { flag })
      expect(submitted.statusCode).toBe(200)
      const id = submitted.json() as number
      await t.app.deps.services.judge.drain()
      // The first poll may refresh the session or the visit time; the next one needs nothing.
      expect((await status(a, id)).json()).toBe(verdict)
      let res: Awaited<ReturnType<typeof status>> | undefined
      expect(
        await queriesOf(async () => {
          res = await status(a, id)
        }),
      ).toBe(0)
      expect(res!.json()).toBe(verdict)
      // Someone else's submission is as unknown as it is in the database.
      await status(b, id)
      const stranger = await status(b, id)
      expect(stranger.statusCode).toBe(404)
      expect(stranger.json()).toMatchObject({ status: 404 })
    }
  })

  it('reads what this process did not judge from the database, and forgets deleted challenges', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(admin, game.id, 'flag{elsewhere}')
    const player = await acceptedPlayer(t.app, admin, game.id)
    const base = `/api/game/${game.id}/challenges/${c.id}`
    const submitted = await player.agent.post(base, { flag: 'flag{elsewhere}' })
    const id = submitted.json() as number
    await t.app.deps.services.judge.drain()
    expect((await player.agent.get(`${base}/status/${id}`)).json()).toBe('Accepted')

    // A submission another server recorded and judged: only the database knows it.
    const [row] = await t.app.deps.db.select().from(submissions).where(eq(submissions.id, id))
    const [other] = await t.app.deps.db
      .insert(submissions)
      .values({ ...row!, id: undefined, answer: 'flag{nope}', status: 'FlagSubmitted' })
      .returning({ id: submissions.id })
    const elsewhere = createJudge({
      db: t.app.deps.db,
      clock: t.app.deps.clock,
      scoreboard: t.app.deps.services.scoreboard,
      notices: t.app.deps.services.notices,
      log: t.app.log,
    })
    await elsewhere.judgeNow(other!.id)
    let answer: unknown
    expect(
      await queriesOf(async () => {
        answer = (await player.agent.get(`${base}/status/${other!.id}`)).json()
      }),
    ).toBeGreaterThan(0)
    expect(answer).toBe('WrongAnswer')

    // A deleted challenge takes its submissions along: no verdict is answered from memory.
    expect((await admin.delete(`/api/edit/games/${game.id}/challenges/${c.id}`)).statusCode).toBe(200)
    const gone = await player.agent.get(`${base}/status/${id}`)
    expect(gone.statusCode).toBe(404)
  })

  it('records the visits of players on the flag path together, within a second', async () => {
    const game = await createGame(admin)
    const [a, b] = [await acceptedPlayer(t.app, admin, game.id), await acceptedPlayer(t.app, admin, game.id)]
    const ids: string[] = []
    for (const p of [a, b]) {
      const [row] = await t.app.deps.db
        .update(users)
        .set({ lastVisitedUtc: new Date(0), ip: '0.0.0.0' })
        .where(eq(users.normalizedUserName, p.userName.toLowerCase()))
        .returning({ id: users.id })
      ids.push(row!.id)
      // The remembered session still shows the last visit: read it again.
      t.app.deps.services.sessions.forgetUser(row!.id)
    }
    const before = Date.now()
    for (const p of [a, b]) expect((await p.agent.get(`/api/game/${game.id}/details`)).statusCode).toBe(200)
    const rows = await eventually(async () => {
      const found = await t.app.deps.db
        .select({ id: users.id, at: users.lastVisitedUtc, ip: users.ip })
        .from(users)
        .where(
          sql`${users.id} in (${sql.join(
            ids.map((id) => sql`${id}::uuid`),
            sql`, `,
          )})`,
        )
      expect(found.every((r) => r.at.getTime() >= before - 1000)).toBe(true)
      return found
    })
    expect(new Set(rows.map((r) => r.ip))).toEqual(new Set([a.agent.ip, b.agent.ip]))
  })
})
