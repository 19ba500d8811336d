import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gameInstances, participations, teamMembers, teams, userParticipations } from '../../src/db/schema.ts'
import { adminAgent, createChallenge, createGame, registeredUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
let admin: Agent
beforeAll(async () => {
  t = await createTestApp()
  admin = await adminAgent(t.app)
})
afterAll(() => t.close())

/** A one-member team registered for the game (the join API arrives with the next issue). */
async function pendingTeam(gameId: number, division: string | null = null) {
  const user = await registeredUser(t.app)
  const me = (await user.agent.get('/api/account/profile')).json()
  const db = t.app.deps.db
  const [team] = await db
    .insert(teams)
    .values({ name: `T-${user.userName}`.slice(0, 20), inviteToken: 'a'.repeat(32), captainId: me.userId })
    .returning()
  await db.insert(teamMembers).values({ teamId: team!.id, userId: me.userId })
  const [p] = await db
    .insert(participations)
    .values({ gameId, teamId: team!.id, token: `${team!.id}:sig`, division })
    .returning()
  await db
    .insert(userParticipations)
    .values({ gameId, teamId: team!.id, userId: me.userId, participationId: p!.id })
  return { participation: p!, team: team!, user, userId: me.userId as string }
}

describe('GET /api/game/{id}/participations', () => {
  it('lists each team with its members, registered players, division and status', async () => {
    const game = await createGame(admin, { divisions: ['Open'] })
    const { participation, team, userId, user } = await pendingTeam(game.id, 'Open')
    const res = await admin.get(`/api/game/${game.id}/participations`)
    expect(res.json()).toEqual([
      {
        id: participation.id,
        team: {
          id: team.id,
          name: team.name,
          bio: null,
          avatar: null,
          locked: false,
          captainId: userId,
          members: [
            expect.objectContaining({ userId, userName: user.userName, email: user.email, role: 'User' }),
          ],
        },
        registeredMembers: [userId],
        division: 'Open',
        status: 'Pending',
      },
    ])
  })

  it('answers 404 for a missing game and 403 to non-admins', async () => {
    expect((await admin.get('/api/game/999999/participations')).statusCode).toBe(404)
    const { agent } = await registeredUser(t.app)
    expect((await agent.get('/api/game/1/participations')).statusCode).toBe(403)
  })
})

describe('PUT /api/admin/participation/{id}', () => {
  it('accepting locks the team and hands it every enabled challenge', async () => {
    const game = await createGame(admin)
    const on = await createChallenge(admin, game.id)
    await admin.post(`/api/edit/games/${game.id}/challenges/${on.id}/flags`, [{ flag: 'f' }])
    await admin.put(`/api/edit/games/${game.id}/challenges/${on.id}`, { isEnabled: true })
    const off = await createChallenge(admin, game.id)
    const { participation, team } = await pendingTeam(game.id)
    expect(
      (await admin.put(`/api/admin/participation/${participation.id}`, { status: 'Accepted' })).statusCode,
    ).toBe(200)
    const db = t.app.deps.db
    expect((await db.select().from(teams).where(eq(teams.id, team.id)))[0]!.locked).toBe(true)
    const instances = await db
      .select()
      .from(gameInstances)
      .where(eq(gameInstances.participationId, participation.id))
    expect(instances.map((i) => i.challengeId)).toEqual([on.id])
    expect(instances.map((i) => i.challengeId)).not.toContain(off.id)
  })

  it('follows the review transitions and refuses the others', async () => {
    const game = await createGame(admin)
    const { participation } = await pendingTeam(game.id)
    const url = `/api/admin/participation/${participation.id}`
    expect((await admin.put(url, { status: 'Suspended' })).json()).toEqual({
      title: 'A participation cannot go from Pending to Suspended',
      status: 400,
    })
    expect((await admin.put(url, { status: 1 })).statusCode).toBe(200)
    expect((await admin.put(url, { status: 'suspended' })).statusCode).toBe(200)
    expect((await admin.put(url, { status: 'Rejected' })).statusCode).toBe(400)
    expect((await admin.put(url, { status: 'Accepted' })).statusCode).toBe(200)
    const [row] = await t.app.deps.db
      .select()
      .from(participations)
      .where(eq(participations.id, participation.id))
    expect(row!.status).toBe(1)
  })

  it('moves a team between the game’s divisions and refuses unknown ones', async () => {
    const game = await createGame(admin, { divisions: ['Open', 'Student'] })
    const { participation } = await pendingTeam(game.id, 'Open')
    const url = `/api/admin/participation/${participation.id}`
    expect((await admin.put(url, { division: 'Student' })).statusCode).toBe(200)
    expect((await admin.get(`/api/game/${game.id}/participations`)).json()[0].division).toBe('Student')
    expect((await admin.put(url, { division: 'Pro' })).json()).toEqual({
      title: 'This division does not exist in the game',
      status: 400,
    })
    expect((await admin.put(url, { division: null })).statusCode).toBe(400)
  })

  it('validates input, ids and roles', async () => {
    expect((await admin.put('/api/admin/participation/999999', { status: 'Accepted' })).statusCode).toBe(404)
    expect((await admin.put('/api/admin/participation/abc', {})).statusCode).toBe(400)
    expect((await admin.put('/api/admin/participation/1', { status: 'Winner' })).statusCode).toBe(400)
    const { agent } = await registeredUser(t.app)
    expect((await agent.put('/api/admin/participation/1', { status: 'Accepted' })).statusCode).toBe(403)
    expect((await new Agent(t.app).put('/api/admin/participation/1', {})).statusCode).toBe(401)
  })
})
