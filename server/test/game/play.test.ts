import { eq } from 'drizzle-orm'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { cheatInfo, submissions } from '../../src/db/schema.ts'
import {
  adminAgent,
  createChallenge,
  createGame,
  eventually,
  registeredUser,
  type TestUser,
  teamOf,
} from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

const HOUR = 3600_000

/** An enabled static challenge with one flag. */
async function staticChallenge(gameId: number, flag = 'flag{static}', extra: Record<string, unknown> = {}) {
  const c = await createChallenge(admin, gameId, { category: 'Web' })
  await admin.post(`/api/edit/games/${gameId}/challenges/${c.id}/flags`, [{ flag }])
  await admin.put(`/api/edit/games/${gameId}/challenges/${c.id}`, { isEnabled: true, ...extra })
  return c
}

/** A player whose team joined the game and was accepted. */
async function acceptedPlayer(gameId: number): Promise<TestUser & { teamId: number }> {
  const user = await registeredUser(t.app)
  const team = await teamOf(t.app, user)
  expect((await user.agent.post(`/api/game/${gameId}`, { teamId: team.id })).statusCode).toBe(200)
  const [p] = (await admin.get(`/api/game/${gameId}/participations`))
    .json()
    .filter((x: { team: { id: number } }) => x.team.id === team.id)
  expect((await admin.put(`/api/admin/participation/${p.id}`, { status: 'Accepted' })).statusCode).toBe(200)
  return { ...user, teamId: team.id }
}

async function submit(player: TestUser, gameId: number, challengeId: number, flag: string) {
  const res = await player.agent.post(`/api/game/${gameId}/challenges/${challengeId}`, { flag })
  expect(res.statusCode, res.body).toBe(200)
  const id = res.json() as number
  await t.app.deps.services.judge.drain()
  return (
    await player.agent.get(`/api/game/${gameId}/challenges/${challengeId}/status/${id}`)
  ).json() as string
}

const board = async (gameId: number) => (await new Agent(t.app).get(`/api/game/${gameId}/scoreboard`)).json()

describe('joining and the participation gate', () => {
  it('takes a team from joining through review to playing', async () => {
    const game = await createGame(admin)
    const user = await registeredUser(t.app)
    const team = await teamOf(t.app, user)
    expect((await user.agent.get(`/api/game/${game.id}`)).json()).toMatchObject({
      status: 'Unsubmitted',
      teamName: null,
      teamCount: 0,
    })
    expect((await user.agent.post(`/api/game/${game.id}`, { teamId: team.id })).statusCode).toBe(200)
    expect((await user.agent.get(`/api/game/${game.id}`)).json()).toMatchObject({
      status: 'Pending',
      teamName: team.name,
      teamCount: 1,
    })
    expect((await user.agent.get(`/api/game/${game.id}/details`)).json()).toEqual({
      title: 'Your team’s registration has not been accepted',
      status: 400,
    })
    const [p] = (await admin.get(`/api/game/${game.id}/participations`)).json()
    await admin.put(`/api/admin/participation/${p.id}`, { status: 'Accepted' })
    const details = await user.agent.get(`/api/game/${game.id}/details`)
    expect(details.statusCode).toBe(200)
    expect(details.json()).toMatchObject({
      challengeCount: 0,
      teamToken: expect.stringMatching(new RegExp(`^${team.id}:`)),
    })
  })

  it('checks invite code, division, membership and double joining', async () => {
    const game = await createGame(admin, { inviteCode: 'letmein', divisions: ['Open'] })
    const user = await registeredUser(t.app)
    const team = await teamOf(t.app, user)
    const join = (body: Record<string, unknown>) =>
      user.agent.post(`/api/game/${game.id}`, { teamId: team.id, ...body })
    expect((await join({ division: 'Open' })).json().title).toBe('The invite code is wrong')
    expect((await join({ inviteCode: 'letmein' })).json().title).toBe(
      'This division does not exist in the game',
    )
    expect((await join({ inviteCode: 'letmein', division: 'Pro' })).json().title).toBe(
      'This division does not exist in the game',
    )
    const stranger = await registeredUser(t.app)
    expect(
      (
        await stranger.agent.post(`/api/game/${game.id}`, {
          teamId: team.id,
          inviteCode: 'letmein',
          division: 'Open',
        })
      ).json().title,
    ).toBe('You are not a member of this team')
    expect((await join({ inviteCode: 'letmein', division: 'Open' })).statusCode).toBe(200)
    expect((await join({ inviteCode: 'letmein', division: 'Open' })).json().title).toBe(
      'You have already joined this game',
    )
    expect((await user.agent.post('/api/game/999999', { teamId: team.id })).statusCode).toBe(404)
    expect(
      (
        await user.agent.post(`/api/game/${game.id}`, {
          teamId: 999999,
          inviteCode: 'letmein',
          division: 'Open',
        })
      ).statusCode,
    ).toBe(404)
  })

  it('lets a pending player leave but not an accepted one', async () => {
    const game = await createGame(admin)
    const user = await registeredUser(t.app)
    const team = await teamOf(t.app, user)
    await user.agent.post(`/api/game/${game.id}`, { teamId: team.id })
    expect((await user.agent.delete(`/api/game/${game.id}`)).statusCode).toBe(200)
    expect((await admin.get(`/api/game/${game.id}/participations`)).json()).toEqual([])
    expect((await user.agent.delete(`/api/game/${game.id}`)).json().title).toBe(
      'You have not joined this game',
    )
    const player = await acceptedPlayer(game.id)
    expect((await player.agent.delete(`/api/game/${game.id}`)).json().title).toBe(
      'You cannot leave a game once your team is accepted',
    )
  })

  it('answers 10001 before the start and 10002 after the end of a non-practice game', async () => {
    const later = await createGame(admin, { start: Date.now() + HOUR, end: Date.now() + 2 * HOUR })
    const early = await acceptedPlayer(later.id)
    expect((await early.agent.get(`/api/game/${later.id}/details`)).json()).toEqual({
      title: 'The game has not started yet',
      status: 10001,
    })
    expect((await new Agent(t.app).get(`/api/game/${later.id}/scoreboard`)).json().items).toEqual([])

    const over = await createGame(admin, {
      start: Date.now() - 2 * HOUR,
      end: Date.now() - HOUR,
      practiceMode: false,
    })
    const user = await registeredUser(t.app)
    const team = await teamOf(t.app, user)
    expect((await user.agent.post(`/api/game/${over.id}`, { teamId: team.id })).json()).toEqual({
      title: 'The game has ended',
      status: 10002,
    })
  })

  it('hides hidden games from everyone but admins', async () => {
    const game = await createGame(admin, { hidden: true })
    const { agent } = await registeredUser(t.app)
    expect((await agent.get(`/api/game/${game.id}`)).statusCode).toBe(404)
    expect((await agent.get(`/api/game/${game.id}/scoreboard`)).statusCode).toBe(404)
    expect(
      (await new Agent(t.app).get('/api/game?count=50')).json().data.map((g: { id: number }) => g.id),
    ).not.toContain(game.id)
    expect((await admin.get(`/api/game/${game.id}`)).statusCode).toBe(200)
  })

  it('hides the scoreboard as soon as a game is hidden, though the board was already built', async () => {
    const game = await createGame(admin)
    const { agent } = await registeredUser(t.app)
    expect((await agent.get(`/api/game/${game.id}/scoreboard`)).statusCode).toBe(200)
    expect((await admin.put(`/api/edit/games/${game.id}`, { ...game, hidden: true })).statusCode).toBe(200)
    expect((await agent.get(`/api/game/${game.id}/scoreboard`)).json()).toEqual({
      title: expect.any(String),
      status: 404,
    })
    expect((await admin.get(`/api/game/${game.id}/scoreboard`)).statusCode).toBe(200)
  })
})

describe('solving and the scoreboard', () => {
  it('judges flags, awards bloods in order and ranks the teams', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id)
    const [a, b, d] = [
      await acceptedPlayer(game.id),
      await acceptedPlayer(game.id),
      await acceptedPlayer(game.id),
    ]
    expect((await a.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json()).toMatchObject({
      id: c.id,
      score: 1000,
      attempts: 0,
      limit: 0,
    })
    expect(await submit(a, game.id, c.id, 'flag{wrong}')).toBe('WrongAnswer')
    expect(await submit(b, game.id, c.id, '  flag{static}  ')).toBe('Accepted')
    expect(await submit(a, game.id, c.id, 'flag{static}')).toBe('Accepted')
    expect(await submit(d, game.id, c.id, 'flag{static}')).toBe('Accepted')
    expect(await submit(b, game.id, c.id, 'flag{static}')).toBe('Accepted')

    const sb = await eventually(async () => {
      const s = await board(game.id)
      expect(s.items.every((i: { solvedCount: number }) => i.solvedCount === 1)).toBe(true)
      return s
    })
    // score(3) of (1000, 0.25, 5) = 752; bloods +5%, +3%, +1%
    expect(sb.items.map((i: { id: number; score: number; rank: number }) => [i.id, i.score, i.rank])).toEqual(
      [
        [b.teamId, 790, 1],
        [a.teamId, 775, 2],
        [d.teamId, 760, 3],
      ],
    )
    expect(sb.challenges.Web[0]).toMatchObject({ id: c.id, score: 752, solved: 3 })
    expect(sb.challenges.Web[0].bloods.map((x: { id: number }) => x.id)).toEqual([
      b.teamId,
      a.teamId,
      d.teamId,
    ])
    expect(sb.items[0].solvedChallenges[0]).toMatchObject({
      id: c.id,
      type: 'FirstBlood',
      userName: b.userName,
    })

    const notices = (await a.agent.get(`/api/game/${game.id}/notices`)).json()
    expect(notices.map((n: { type: string }) => n.type)).toEqual([
      'ThirdBlood',
      'SecondBlood',
      'FirstBlood',
      'NewChallenge',
    ])
    const details = (await a.agent.get(`/api/game/${game.id}/details`)).json()
    expect(details.rank).toMatchObject({ id: a.teamId, rank: 2, score: 775 })
    expect((await a.agent.get(`/api/game/${game.id}/challenges/${c.id}`)).json().attempts).toBe(2)
  })

  it('grants first blood exactly once under concurrent correct submissions', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id, 'flag{race}')
    const players = await Promise.all(Array.from({ length: 8 }, () => acceptedPlayer(game.id)))
    const responses = await Promise.all(
      players.flatMap((p) =>
        [1, 2].map(() => p.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{race}' })),
      ),
    )
    expect(responses.every((r) => r.statusCode === 200)).toBe(true)
    await t.app.deps.services.judge.drain()
    const sb = await eventually(async () => {
      const s = await board(game.id)
      expect(s.challenges.Web[0].solved).toBe(8)
      return s
    })
    const types = sb.items.map((i: { solvedChallenges: { type: string }[] }) => i.solvedChallenges[0]!.type)
    expect(types.filter((x: string) => x === 'FirstBlood')).toHaveLength(1)
    expect(types.filter((x: string) => x === 'SecondBlood')).toHaveLength(1)
    expect(types.filter((x: string) => x === 'ThirdBlood')).toHaveLength(1)
    const rows = await t.app.deps.db.select().from(submissions).where(eq(submissions.challengeId, c.id))
    expect(rows).toHaveLength(16)
    expect(rows.every((r) => r.status === 'Accepted')).toBe(true)
  })

  it('detects a team submitting another team’s dynamic flag, and tells it only "wrong"', async () => {
    const game = await createGame(admin)
    const c = await createChallenge(admin, game.id, { type: 'DynamicContainer', category: 'Pwn' })
    await admin.put(`/api/edit/games/${game.id}/challenges/${c.id}`, {
      flagTemplate: 'flag{[TEAM_HASH]}',
      isEnabled: true,
    })
    const [owner, thief] = [await acceptedPlayer(game.id), await acceptedPlayer(game.id)]
    await owner.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    await thief.agent.get(`/api/game/${game.id}/challenges/${c.id}`)
    const { flags, gameInstances } = await import('../../src/db/schema.ts')
    const handed = await t.app.deps.db
      .select({ flag: flags.flag, participationId: gameInstances.participationId })
      .from(gameInstances)
      .innerJoin(flags, eq(flags.id, gameInstances.flagId))
      .where(eq(gameInstances.challengeId, c.id))
    expect(handed.map((x) => x.flag)).toEqual([
      expect.stringMatching(/^flag\{[0-9a-f]{12}\}$/),
      expect.stringMatching(/^flag\{[0-9a-f]{12}\}$/),
    ])
    expect(new Set(handed.map((x) => x.flag)).size).toBe(2)
    const thiefP = (await admin.get(`/api/game/${game.id}/participations`))
      .json()
      .find((p: { team: { id: number } }) => p.team.id === thief.teamId).id
    const stolen = handed.find((x) => x.participationId !== thiefP)!.flag
    const own = handed.find((x) => x.participationId === thiefP)!.flag
    expect(await submit(thief, game.id, c.id, stolen)).toBe('WrongAnswer')
    const cheats = await t.app.deps.db.select().from(cheatInfo).where(eq(cheatInfo.gameId, game.id))
    expect(cheats).toHaveLength(1)
    expect(await submit(thief, game.id, c.id, own)).toBe('Accepted')
    expect(await submit(owner, game.id, c.id, own)).toBe('WrongAnswer')
  })

  it('scores nothing for solves after the end of a practice game, but still judges them', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id, 'flag{late}')
    const player = await acceptedPlayer(game.id)
    await admin.put(`/api/edit/games/${game.id}`, {
      title: game.title,
      start: Date.now() - 2 * HOUR,
      end: Date.now() - 1000,
      practiceMode: true,
    })
    expect(await submit(player, game.id, c.id, 'flag{late}')).toBe('Accepted')
    const sb = await eventually(async () => {
      const s = await board(game.id)
      expect(s.items).toHaveLength(1)
      return s
    })
    expect(sb.items[0]).toMatchObject({ score: 0, solvedCount: 0 })
  })

  it('enforces the submission limit, counting every attempt', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id, 'flag{limited}', { submissionLimit: 2 })
    const player = await acceptedPlayer(game.id)
    expect(await submit(player, game.id, c.id, 'no')).toBe('WrongAnswer')
    expect(await submit(player, game.id, c.id, 'still no')).toBe('WrongAnswer')
    const third = await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, {
      flag: 'flag{limited}',
    })
    expect(third.json()).toEqual({
      title: 'Your team has used all its attempts at this challenge',
      status: 400,
    })
  })

  it('validates flags and refuses strangers', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id)
    const player = await acceptedPlayer(game.id)
    const post = (flag: unknown) => player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag })
    expect((await post('   ')).json().title).toBe('A flag is required')
    expect((await post('x'.repeat(128))).json().title).toBe('A flag has at most 127 characters')
    // The length counts UTF-16 code units as the reference does: 64 emoji are 128 of them.
    expect((await post('🚩'.repeat(64))).json().title).toBe('A flag has at most 127 characters')
    expect((await post(`x${'🚩'.repeat(63)}`)).statusCode).toBe(200)
    expect((await post(5)).statusCode).toBe(400)
    expect(
      (await player.agent.post(`/api/game/${game.id}/challenges/999999`, { flag: 'x' })).statusCode,
    ).toBe(404)
    const outsider = await registeredUser(t.app)
    expect(
      (await outsider.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'x' })).json().title,
    ).toBe('Your team has not joined this game')
    expect(
      (await new Agent(t.app).post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'x' })).statusCode,
    ).toBe(401)
    const id = (await post('flag{static}')).json()
    expect(
      (await outsider.agent.get(`/api/game/${game.id}/challenges/${c.id}/status/${id}`)).statusCode,
    ).toBe(404)
  })
})

// A player polls the status right after submitting. While the flag is being judged the poll
// waits for the verdict (up to a second), so the player learns it from one request instead of
// polling again and again. Held here by a transaction on the challenge row that the judge's
// counter needs and the recording of a flag does not (PostgreSQL only: PGlite has one connection).
describe.skipIf(!process.env.TEST_DATABASE_URL)('a status poll while the flag is judged', () => {
  async function holdingTheChallenge(challengeId: number, during: () => Promise<void>) {
    const holder = new pg.Client({ connectionString: t.databaseUrl })
    await holder.connect()
    try {
      await holder.query('begin')
      await holder.query('select 1 from challenges where id = $1 for share', [challengeId])
      await during()
    } finally {
      await holder.query('commit')
      await holder.end()
    }
  }

  it('answers with the verdict once it is made, in the same request', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id)
    const player = await acceptedPlayer(game.id)
    let poll: Promise<{ statusCode: number; body: string }> | undefined
    await holdingTheChallenge(c.id, async () => {
      const res = await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{static}' })
      expect(res.statusCode).toBe(200)
      poll = player.agent.get(`/api/game/${game.id}/challenges/${c.id}/status/${res.json()}`)
      // real wait: the judge is held by the transaction; the poll must still be waiting.
      await new Promise((r) => setTimeout(r, 200))
      expect(await Promise.race([poll.then(() => 'answered'), Promise.resolve('waiting')])).toBe('waiting')
    })
    const answer = await poll!
    expect(answer.statusCode).toBe(200)
    expect(JSON.parse(answer.body)).toBe('Accepted')
  })

  it('answers "FlagSubmitted" after a second when the verdict takes longer', async () => {
    const game = await createGame(admin)
    const c = await staticChallenge(game.id)
    const player = await acceptedPlayer(game.id)
    let status = ''
    await holdingTheChallenge(c.id, async () => {
      const res = await player.agent.post(`/api/game/${game.id}/challenges/${c.id}`, { flag: 'flag{static}' })
      status = `/api/game/${game.id}/challenges/${c.id}/status/${res.json()}`
      const t0 = Date.now()
      expect((await player.agent.get(status)).json()).toBe('FlagSubmitted')
      expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
      expect(Date.now() - t0).toBeLessThan(5000)
    })
    await t.app.deps.services.judge.drain()
    expect((await player.agent.get(status)).json()).toBe('Accepted')
  })
})
