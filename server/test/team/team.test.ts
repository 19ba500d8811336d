import { eq } from 'drizzle-orm'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { participations, teams, userParticipations } from '../../src/db/schema.ts'
import { newGameKeys, signTeamToken } from '../../src/engine/keys.ts'
import { adminAgent, createGame, registeredUser, type TestUser } from '../factories.ts'
import { Agent } from '../helpers/agent.ts'
import { createTestApp, type TestApp } from '../helpers/app.ts'

let t: TestApp
beforeAll(async () => {
  t = await createTestApp()
})
afterAll(() => t.close())

const idOf = async (u: TestUser) => (await u.agent.get('/api/account/profile')).json().userId as string

async function teamWith(captain: TestUser, name = 'Team Rocket') {
  const res = await captain.agent.post('/api/team', { name, bio: 'we blast off' })
  expect(res.statusCode, res.body).toBe(200)
  return res.json() as { id: number; name: string }
}

async function join(member: TestUser, captain: TestUser, teamId: number) {
  const code = (await captain.agent.get(`/api/team/${teamId}/invite`)).json()
  expect((await member.agent.post('/api/team/accept', code)).statusCode).toBe(200)
}

describe('creating and reading teams', () => {
  it('creates a team with its creator as captain and only member', async () => {
    const captain = await registeredUser(t.app)
    const res = await captain.agent.post('/api/team', { name: '  Pwners  ', bio: 'hi' })
    expect(res.json()).toEqual({
      id: expect.any(Number),
      name: 'Pwners',
      bio: 'hi',
      avatar: null,
      locked: false,
      members: [
        { id: await idOf(captain), userName: captain.userName, bio: '', avatar: null, captain: true },
      ],
    })
    expect((await captain.agent.get('/api/team')).json().map((x: { id: number }) => x.id)).toEqual([
      res.json().id,
    ])
    expect((await new Agent(t.app).get(`/api/team/${res.json().id}`)).json().name).toBe('Pwners')
  })

  it.each([
    [{}, 'A team needs a name'],
    [{ name: '   ' }, 'A team needs a name'],
    [{ name: 'x'.repeat(21) }, 'name must NOT have more than 20 characters'],
    [{ name: 'ok', bio: 'x'.repeat(73) }, 'bio must NOT have more than 72 characters'],
    [{ name: 5 }, /name must be string/],
  ])('refuses %j', async (body, title) => {
    const { agent } = await registeredUser(t.app)
    const res = await agent.post('/api/team', body)
    expect(res.statusCode).toBe(400)
    expect(res.json().title).toMatch(title)
  })

  it('holds the limit of three captaincies under concurrent requests', async () => {
    const captain = await registeredUser(t.app)
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => captain.agent.post('/api/team', { name: `T${i}` })),
    )
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(3)
    expect(results.filter((r) => r.statusCode === 400).map((r) => r.json().title)).toEqual(
      Array(3).fill('You already captain 3 teams, the most allowed'),
    )
    expect((await captain.agent.get('/api/team')).json()).toHaveLength(3)
  })

  it('answers 404 for an unknown team, 400 for a malformed id, 401 when anonymous', async () => {
    expect((await new Agent(t.app).get('/api/team/999999')).json()).toEqual({
      title: 'Team not found',
      status: 404,
    })
    expect((await new Agent(t.app).get('/api/team/abc')).statusCode).toBe(400)
    expect((await new Agent(t.app).get('/api/team')).statusCode).toBe(401)
    expect((await new Agent(t.app).post('/api/team', { name: 'x' })).statusCode).toBe(401)
  })

  it('answers 400 (not 404) when the team a captain edits is missing, as the contract says', async () => {
    const { agent } = await registeredUser(t.app)
    const missing = { title: 'Team not found', status: 400 }
    const someone = '00000000-0000-4000-8000-000000000001'
    expect((await agent.put('/api/team/999999', { name: 'x' })).json()).toEqual(missing)
    expect((await agent.put('/api/team/999999/transfer', { newCaptainId: someone })).json()).toEqual(missing)
    expect((await agent.get('/api/team/999999/invite')).json()).toEqual(missing)
    expect((await agent.put('/api/team/999999/invite')).json()).toEqual(missing)
    expect((await agent.post(`/api/team/999999/kick/${someone}`)).json()).toEqual(missing)
    // Leaving, the avatar and deletion keep 404, as the contract says for them.
    expect((await agent.post('/api/team/999999/leave')).statusCode).toBe(404)
    expect((await agent.delete('/api/team/999999')).statusCode).toBe(404)
  })
})

describe('captain-only actions', () => {
  it('lets the captain rename, and refuses members and strangers with 403', async () => {
    const captain = await registeredUser(t.app)
    const member = await registeredUser(t.app)
    const team = await teamWith(captain)
    await join(member, captain, team.id)
    expect(
      (await captain.agent.put(`/api/team/${team.id}`, { name: 'Renamed', bio: null })).json(),
    ).toMatchObject({ name: 'Renamed', bio: null })
    for (const who of [member, await registeredUser(t.app)]) {
      expect((await who.agent.put(`/api/team/${team.id}`, { name: 'Hijack' })).json()).toEqual({
        title: 'Only the team captain may do this',
        status: 403,
      })
      expect((await who.agent.get(`/api/team/${team.id}/invite`)).statusCode).toBe(403)
      expect((await who.agent.put(`/api/team/${team.id}/invite`)).statusCode).toBe(403)
      expect((await who.agent.delete(`/api/team/${team.id}`)).statusCode).toBe(403)
      expect((await who.agent.post(`/api/team/${team.id}/kick/${await idOf(captain)}`)).statusCode).toBe(403)
    }
  })

  it('a captain of team A cannot act on team B', async () => {
    const a = await registeredUser(t.app)
    const b = await registeredUser(t.app)
    const teamB = await teamWith(b)
    await teamWith(a)
    expect((await a.agent.put(`/api/team/${teamB.id}`, { name: 'mine now' })).statusCode).toBe(403)
    expect(
      (await a.agent.put(`/api/team/${teamB.id}/transfer`, { newCaptainId: await idOf(a) })).statusCode,
    ).toBe(403)
  })
})

describe('invite codes', () => {
  it('lets a user join with the code; an old code stops working after regeneration', async () => {
    const captain = await registeredUser(t.app)
    const team = await teamWith(captain, 'Colon:Name')
    const old = (await captain.agent.get(`/api/team/${team.id}/invite`)).json() as string
    expect(old).toMatch(new RegExp(`^Colon:Name:${team.id}:[0-9a-f]{32}$`))
    const fresh = (await captain.agent.put(`/api/team/${team.id}/invite`)).json() as string
    expect(fresh).not.toBe(old)
    const joiner = await registeredUser(t.app)
    expect((await joiner.agent.post('/api/team/accept', old)).json()).toEqual({
      title: 'This invite code is out of date; ask the captain for a new one',
      status: 400,
    })
    expect((await joiner.agent.post('/api/team/accept', fresh)).statusCode).toBe(200)
    expect((await joiner.agent.post('/api/team/accept', fresh)).json().title).toBe(
      'You are already a member of this team',
    )
    expect((await joiner.agent.get('/api/team')).json().map((x: { id: number }) => x.id)).toContain(team.id)
  })

  it('refuses malformed codes and unknown teams', async () => {
    const { agent } = await registeredUser(t.app)
    expect((await agent.post('/api/team/accept', 'nonsense')).json().title).toBe(
      'This invite code is not valid',
    )
    // The contract: a code naming a missing team is a bad code (400), not a missing resource.
    expect((await agent.post('/api/team/accept', `x:999999:${'a'.repeat(32)}`)).json()).toEqual({
      title: 'Team not found',
      status: 400,
    })
    expect((await agent.post('/api/team/accept', { code: 'x' })).statusCode).toBe(400)
  })
})

describe('members: kick, leave, transfer, delete', () => {
  it('kicking removes the kicked member’s game registrations and keeps the captain’s', async () => {
    const admin = await adminAgent(t.app)
    const captain = await registeredUser(t.app)
    const member = await registeredUser(t.app)
    const team = await teamWith(captain)
    await join(member, captain, team.id)
    const game = await createGame(admin)
    await captain.agent.post(`/api/game/${game.id}`, { teamId: team.id })
    await member.agent.post(`/api/game/${game.id}`, { teamId: team.id })
    const kicked = await captain.agent.post(`/api/team/${team.id}/kick/${await idOf(member)}`)
    expect(kicked.json().members.map((m: { userName: string }) => m.userName)).toEqual([captain.userName])
    const left = await t.app.deps.db
      .select()
      .from(userParticipations)
      .where(eq(userParticipations.teamId, team.id))
    expect(left.map((r) => r.userId)).toEqual([await idOf(captain)])
  })

  it('the captain cannot kick themself or leave; a member can leave', async () => {
    const captain = await registeredUser(t.app)
    const member = await registeredUser(t.app)
    const team = await teamWith(captain)
    await join(member, captain, team.id)
    expect((await captain.agent.post(`/api/team/${team.id}/kick/${await idOf(captain)}`)).json().title).toBe(
      'The captain cannot be removed from the team',
    )
    expect((await captain.agent.post(`/api/team/${team.id}/leave`)).json().title).toBe(
      'The captain cannot leave; hand the captaincy to another member or disband the team',
    )
    expect((await member.agent.post(`/api/team/${team.id}/leave`)).statusCode).toBe(200)
    expect((await member.agent.post(`/api/team/${team.id}/leave`)).json().title).toBe(
      'You are not a member of this team',
    )
    expect((await captain.agent.post(`/api/team/${team.id}/kick/${await idOf(member)}`)).json().title).toBe(
      'This user is not a member of the team',
    )
  })

  it('transfers the captaincy only to a member', async () => {
    const captain = await registeredUser(t.app)
    const member = await registeredUser(t.app)
    const stranger = await registeredUser(t.app)
    const team = await teamWith(captain)
    await join(member, captain, team.id)
    expect(
      (
        await captain.agent.put(`/api/team/${team.id}/transfer`, { newCaptainId: await idOf(stranger) })
      ).json().title,
    ).toBe('The new captain is not a member of this team')
    const res = await captain.agent.put(`/api/team/${team.id}/transfer`, { newCaptainId: await idOf(member) })
    expect(res.json().members.find((m: { captain: boolean }) => m.captain).userName).toBe(member.userName)
    expect((await captain.agent.put(`/api/team/${team.id}`, { name: 'x' })).statusCode).toBe(403)
    expect(
      (await captain.agent.put(`/api/team/${team.id}/transfer`, { newCaptainId: 'not-a-uuid' })).statusCode,
    ).toBe(400)
  })

  it('keeps members while a game is unfinished, and lifts the lock once it has ended', async () => {
    const admin = await adminAgent(t.app)
    const captain = await registeredUser(t.app)
    const member = await registeredUser(t.app)
    const team = await teamWith(captain)
    await join(member, captain, team.id)
    const game = await createGame(admin)
    await captain.agent.post(`/api/game/${game.id}`, { teamId: team.id })
    const [p] = await t.app.deps.db.select().from(participations).where(eq(participations.teamId, team.id))
    await admin.put(`/api/admin/participation/${p!.id}`, { status: 'Accepted' })
    expect((await captain.agent.get(`/api/team/${team.id}`)).json().locked).toBe(true)
    const memberId = await idOf(member)
    expect((await captain.agent.post(`/api/team/${team.id}/kick/${memberId}`)).json().title).toBe(
      'The team is locked while one of its games is unfinished',
    )
    expect((await member.agent.post(`/api/team/${team.id}/leave`)).statusCode).toBe(400)
    expect((await captain.agent.delete(`/api/team/${team.id}`)).statusCode).toBe(400)

    await admin.put(`/api/edit/games/${game.id}`, {
      title: 'over',
      start: Date.now() - 7200_000,
      end: Date.now() - 1000,
    })
    expect((await captain.agent.post(`/api/team/${team.id}/kick/${memberId}`)).statusCode).toBe(200)
    const [row] = await t.app.deps.db.select().from(teams).where(eq(teams.id, team.id))
    expect(row!.locked).toBe(false)
  })

  it('deletes a team with its registrations', async () => {
    const captain = await registeredUser(t.app)
    const team = await teamWith(captain)
    expect((await captain.agent.delete(`/api/team/${team.id}`)).statusCode).toBe(200)
    expect((await new Agent(t.app).get(`/api/team/${team.id}`)).statusCode).toBe(404)
    expect((await captain.agent.delete(`/api/team/${team.id}`)).statusCode).toBe(404)
  })
})

describe('team avatar', () => {
  it('stores the captain’s picture and refuses others', async () => {
    const captain = await registeredUser(t.app)
    const team = await teamWith(captain)
    const png = await sharp({ create: { width: 400, height: 400, channels: 3, background: '#00aa55' } })
      .png()
      .toBuffer()
    const res = await captain.agent.upload('PUT', `/api/team/${team.id}/avatar`, {
      bytes: png,
      name: 'a.png',
      type: 'image/png',
    })
    expect(res.json()).toMatch(/^\/assets\/[0-9a-f]{64}\/avatar\.webp$/)
    expect((await new Agent(t.app).get(`/api/team/${team.id}`)).json().avatar).toBe(
      res.json().replace('.webp', ''),
    )
    const other = await registeredUser(t.app)
    expect(
      (
        await other.agent.upload('PUT', `/api/team/${team.id}/avatar`, {
          bytes: png,
          name: 'a.png',
          type: 'image/png',
        })
      ).statusCode,
    ).toBe(403)
    const bad = await captain.agent.upload('PUT', `/api/team/${team.id}/avatar`, {
      bytes: Buffer.from('nope'),
      name: 'a.png',
      type: 'image/png',
    })
    expect(bad.statusCode).toBe(400)
  })
})

describe('POST /api/team/verify', () => {
  it('accepts a token signed by the game key, 401 for another key, 400 for malformed input', async () => {
    const keys = newGameKeys()
    const token = signTeamToken(7, keys)
    const anon = new Agent(t.app)
    expect(
      (await anon.post('/api/team/verify', { teamToken: token, publicKey: keys.publicKey })).statusCode,
    ).toBe(200)
    expect(
      (await anon.post('/api/team/verify', { teamToken: token, publicKey: newGameKeys().publicKey })).json(),
    ).toEqual({
      title: 'The signature does not match',
      status: 401,
    })
    for (const body of [
      { teamToken: token, publicKey: 'not base64!!' },
      { teamToken: '7:***', publicKey: keys.publicKey },
      { teamToken: 'no-colon', publicKey: keys.publicKey },
      { teamToken: token },
    ]) {
      const res = await anon.post('/api/team/verify', body)
      expect(res.statusCode).toBe(400)
    }
  })
})
