import { randomBytes } from 'node:crypto'
import { and, asc, count, eq, gt, ilike, inArray, or, sql } from 'drizzle-orm'
import { retryConflicts } from '../../db/errors.ts'
import type { Db, DbOrTx } from '../../db/index.ts'
import { escapeLike } from '../../db/like.ts'
import { games, participations, teamMembers, teams, userParticipations, users } from '../../db/schema.ts'
import { formatInviteCode, parseInviteCode } from '../../engine/invite.ts'
import { verifyTeamToken } from '../../engine/keys.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import { prepareImage } from '../assets/images.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import { teamHead } from './team.presenters.ts'

type TeamRow = typeof teams.$inferSelect
/** A fresh invite token: 32 lowercase hex characters (engine/invite.ts reads them). */
export const newInviteToken = () => randomBytes(16).toString('hex')
const MAX_CAPTAINCIES = 3

/** Teams: creating, joining by invite code, captaincy, members (api-contract §2.9, decisions.md 5). */
export function createTeamService(deps: {
  db: Db
  /** A team's lock lasts while one of its games has not ended, by this clock. */
  clock: Clock
  blobs: BlobService
  /** Members or teams went away: cached registrations and boards must be re-read. */
  onMembershipChanged?: () => void
  /** Stops the team's containers (a deleted team's instances go with it). */
  removeContainers?: (teamId: number) => Promise<void>
}) {
  const { db, blobs } = deps

  /** Many teams with their members in two queries (admin lists). */
  async function presentMany(tx: DbOrTx, rows: TeamRow[]) {
    if (!rows.length) return []
    const members = await tx
      .select({
        teamId: teamMembers.teamId,
        id: users.id,
        userName: users.userName,
        bio: users.bio,
        avatarHash: users.avatarHash,
      })
      .from(teamMembers)
      .innerJoin(users, eq(users.id, teamMembers.userId))
      .where(
        inArray(
          teamMembers.teamId,
          rows.map((r) => r.id),
        ),
      )
      .orderBy(asc(users.userName))
    return rows.map((team) => ({
      ...teamHead(team),
      members: members
        .filter((m) => m.teamId === team.id)
        .map((m) => ({
          id: m.id,
          userName: m.userName,
          bio: m.bio,
          avatar: avatarUrl(m.avatarHash),
          captain: m.id === team.captainId,
        }))
        .sort((a, b) => Number(b.captain) - Number(a.captain)),
    }))
  }

  /** Deletes a team with its registrations, instances and submissions; releases its files. */
  async function destroy(team: TeamRow, check?: (tx: DbOrTx) => Promise<void>) {
    await check?.(db)
    // Containers first: once the team row is gone they no longer say whose they were.
    await deps.removeContainers?.(team.id)
    const writeups = await retryConflicts(() =>
      db.transaction(async (tx) => {
        const held = await tx
          .select({ hash: participations.writeupHash })
          .from(participations)
          .where(eq(participations.teamId, team.id))
        await tx.delete(teams).where(eq(teams.id, team.id))
        return held.map((h) => h.hash)
      }),
    )
    for (const hash of [team.avatarHash, ...writeups]) await blobs.release(hash)
    deps.onMembershipChanged?.()
  }

  async function present(tx: DbOrTx, team: TeamRow) {
    const [one] = await presentMany(tx, [team])
    return one!
  }

  /**
   * The team, or the contract's error when it is missing: 404 for reading, leaving, the avatar
   * and deletion; 400 for the captain's edits and for an invite code (api-contract §2.9).
   */
  async function requireTeam(
    tx: DbOrTx,
    id: number,
    missing: 'Team_NotFound' | 'Team_NotFoundForEdit' | 'Team_NameNotFound' = 'Team_NotFound',
  ) {
    const [team] = await tx.select().from(teams).where(eq(teams.id, id))
    if (!team) throw fail(missing)
    return team
  }

  async function requireCaptain(
    tx: DbOrTx,
    actor: SessionUser,
    id: number,
    missing: 'Team_NotFound' | 'Team_NotFoundForEdit' = 'Team_NotFound',
  ) {
    const team = await requireTeam(tx, id, missing)
    if (team.captainId !== actor.id) throw fail('Team_NotCaptain')
    return team
  }

  async function isMember(tx: DbOrTx, teamId: number, userId: string) {
    const [row] = await tx
      .select()
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    return Boolean(row)
  }

  async function captaincies(tx: DbOrTx, userId: string) {
    const [row] = await tx.select({ n: count() }).from(teams).where(eq(teams.captainId, userId))
    return row?.n ?? 0
  }

  /**
   * A locked team cannot change its members while it takes part in a game that has not ended.
   * A lock with no such game left is lifted on the way.
   */
  async function requireUnlocked(tx: DbOrTx, team: TeamRow) {
    if (!team.locked) return
    const [open] = await tx
      .select({ id: games.id })
      .from(participations)
      .innerJoin(games, eq(games.id, participations.gameId))
      .where(and(eq(participations.teamId, team.id), gt(games.endTimeUtc, deps.clock.date())))
      .limit(1)
    if (open) throw fail('Team_Locked')
    await tx.update(teams).set({ locked: false }).where(eq(teams.id, team.id))
  }

  /** Removes a user from a team together with their registrations for it in games. */
  async function removeMember(tx: DbOrTx, teamId: number, userId: string) {
    await tx.delete(teamMembers).where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.userId, userId)))
    await tx
      .delete(userParticipations)
      .where(and(eq(userParticipations.teamId, teamId), eq(userParticipations.userId, userId)))
  }

  return {
    present: (team: TeamRow) => present(db, team),

    async get(id: number) {
      return present(db, await requireTeam(db, id))
    },

    async mine(actor: SessionUser) {
      const rows = await db
        .select({ team: teams })
        .from(teamMembers)
        .innerJoin(teams, eq(teams.id, teamMembers.teamId))
        .where(eq(teamMembers.userId, actor.id))
        .orderBy(asc(teams.id))
      return Promise.all(rows.map((r) => present(db, r.team)))
    },

    async create(actor: SessionUser, input: { name?: string | null; bio?: string | null }) {
      const name = input.name?.trim()
      if (!name) throw fail('Team_NameEmpty')
      const team = await db.transaction(async (tx) => {
        // Locking the captain's row serialises their creations, so the limit holds under bursts.
        await tx.execute(sql`select id from ${users} where id = ${actor.id} for update`)
        if ((await captaincies(tx, actor.id)) >= MAX_CAPTAINCIES) throw fail('Team_ExceededCreationLimit')
        const [row] = await tx
          .insert(teams)
          .values({
            name,
            bio: input.bio?.trim() || null,
            inviteToken: newInviteToken(),
            captainId: actor.id,
          })
          .returning()
        await tx.insert(teamMembers).values({ teamId: row!.id, userId: actor.id })
        return row!
      })
      return present(db, team)
    },

    async update(actor: SessionUser, id: number, input: { name?: string | null; bio?: string | null }) {
      const team = await requireCaptain(db, actor, id, 'Team_NotFoundForEdit')
      const set: Partial<TeamRow> = { bio: input.bio?.trim() || null }
      if (input.name?.trim()) set.name = input.name.trim()
      const [row] = await db.update(teams).set(set).where(eq(teams.id, team.id)).returning()
      return present(db, row!)
    },

    async transfer(actor: SessionUser, id: number, newCaptainId: string) {
      const team = await requireCaptain(db, actor, id, 'Team_NotFoundForEdit')
      if (newCaptainId === actor.id) return present(db, team)
      if (!(await isMember(db, id, newCaptainId))) throw fail('Team_NewCaptainNotFound')
      if ((await captaincies(db, newCaptainId)) >= MAX_CAPTAINCIES) throw fail('Team_NewCaptainTeamTooMany')
      const [row] = await db
        .update(teams)
        .set({ captainId: newCaptainId })
        .where(eq(teams.id, id))
        .returning()
      return present(db, row!)
    },

    async inviteCode(actor: SessionUser, id: number, regenerate: boolean) {
      let team = await requireCaptain(db, actor, id, 'Team_NotFoundForEdit')
      if (regenerate) {
        ;[team] = (await db
          .update(teams)
          .set({ inviteToken: newInviteToken() })
          .where(eq(teams.id, id))
          .returning()) as [TeamRow]
      }
      return formatInviteCode(team.name, team.id, team.inviteToken)
    },

    async accept(actor: SessionUser, code: string) {
      const parsed = parseInviteCode(code)
      if (!parsed) throw fail('Team_InvalidCode')
      const team = await requireTeam(db, parsed.teamId, 'Team_NameNotFound')
      if (team.inviteToken !== parsed.token) throw fail('Team_NameInvalidInvitation')
      if (await isMember(db, team.id, actor.id)) throw fail('User_AlreadyInTeam')
      await db.insert(teamMembers).values({ teamId: team.id, userId: actor.id }).onConflictDoNothing()
    },

    /** Kicks a member; their game registrations for this team go with them (decisions.md 5). */
    async kick(actor: SessionUser, id: number, userId: string) {
      const team = await requireCaptain(db, actor, id, 'Team_NotFoundForEdit')
      if (userId === actor.id) throw fail('Team_CaptainCannotBeKicked')
      await db.transaction(async (tx) => {
        await requireUnlocked(tx, team)
        if (!(await isMember(tx, id, userId))) throw fail('User_NotInTeam')
        await removeMember(tx, id, userId)
      })
      deps.onMembershipChanged?.()
      return present(db, await requireTeam(db, id))
    },

    async leave(actor: SessionUser, id: number) {
      const team = await requireTeam(db, id)
      if (!(await isMember(db, id, actor.id))) throw fail('User_LeaveNotInTeam')
      // A team never ends up without a captain: hand it over or delete it instead.
      if (team.captainId === actor.id) throw fail('Team_CaptainCannotLeave')
      await db.transaction(async (tx) => {
        await requireUnlocked(tx, team)
        await removeMember(tx, id, actor.id)
      })
      deps.onMembershipChanged?.()
    },

    async setAvatar(actor: SessionUser, id: number, bytes: Buffer) {
      const team = await requireCaptain(db, actor, id)
      const image = await prepareImage(bytes, { width: 300 })
      const file = await blobs.store(image.bytes, `avatar.${image.ext}`)
      await db.update(teams).set({ avatarHash: file.hash }).where(eq(teams.id, id))
      if (team.avatarHash) await blobs.release(team.avatarHash)
      return `/assets/${file.hash}/avatar.${image.ext}`
    },

    async remove(actor: SessionUser, id: number) {
      const team = await requireCaptain(db, actor, id)
      await destroy(team, (tx) => requireUnlocked(tx, team))
    },

    // ---- Admin (api-contract §2.2) ----

    async page(countLimit: number, skip: number) {
      const [rows, [total]] = await Promise.all([
        db.select().from(teams).orderBy(asc(teams.id)).limit(countLimit).offset(skip),
        db.select({ n: count() }).from(teams),
      ])
      const data = await presentMany(db, rows)
      return { data, length: data.length, total: total?.n ?? 0 }
    },

    /** Name contains the hint (any case), or the id is the hint. */
    async search(hint: string) {
      const text = hint.trim()
      const id = /^\d{1,9}$/.test(text) ? Number(text) : null
      const rows = await db
        .select()
        .from(teams)
        .where(or(ilike(teams.name, `%${escapeLike(text)}%`), id === null ? undefined : eq(teams.id, id)))
        .orderBy(asc(teams.id))
        .limit(30)
      const data = await presentMany(db, rows)
      return { data, length: data.length, total: data.length }
    },

    /** Name and bio when non-empty, the lock when given. */
    async adminUpdate(
      id: number,
      input: { name?: string | null; bio?: string | null; locked?: boolean | null },
    ) {
      const [team] = await db.select().from(teams).where(eq(teams.id, id))
      if (!team) throw fail('Admin_TeamNotFoundForEdit')
      const set: Partial<TeamRow> = {}
      if (input.name?.trim()) set.name = input.name.trim()
      if (input.bio?.trim()) set.bio = input.bio.trim()
      if (input.locked != null) set.locked = input.locked
      if (Object.keys(set).length) await db.update(teams).set(set).where(eq(teams.id, id))
      return { before: team, after: { ...team, ...set } }
    },

    /** An admin deletes any team, locked or not. */
    async adminRemove(id: number) {
      const team = await requireTeam(db, id)
      await destroy(team)
      return team
    },

    /** Checks a team token against a game's public key (for tools outside the platform). */
    verify(input: { teamToken: string; publicKey: string }) {
      const valid = verifyTeamToken(input.teamToken.trim(), input.publicKey.trim())
      if (valid === null) throw fail('Signature_Invalid')
      if (!valid) throw fail('Signature_Wrong')
    },
  }
}
export type TeamService = ReturnType<typeof createTeamService>
