import { randomInt } from 'node:crypto'
import { asc, count, eq, ilike, or, sql } from 'drizzle-orm'
import { retryConflicts } from '../../db/errors.ts'
import type { Db, DbOrTx } from '../../db/index.ts'
import { escapeLike } from '../../db/like.ts'
import { teamMembers, teams, users } from '../../db/schema.ts'
import { generatePassword, isStrongPassword } from '../../engine/password.ts'
import { AppError, fail, failWith } from '../../http/errors.ts'
import { type RoleName, RoleValues } from '../../http/schema.ts'
import type { SessionUser } from '../../http/types.ts'
import { presentProfile, ROLE_NAMES } from '../account/account.presenters.ts'
import { hashPassword } from '../account/password-hash.ts'
import type { SessionService } from '../account/sessions.service.ts'
import {
  findUserByEmail,
  findUserById,
  findUserByName,
  insertUser,
  type UserRow,
  updateUser,
} from '../account/users.queries.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import type { AuditService } from '../logs/audit.service.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import { newInviteToken } from '../team/team.service.ts'

const SEARCH_LIMIT = 30

export interface UserCreateInput {
  userName: string
  password: string
  email: string
  realName?: string | null
  stdNumber?: string | null
  phone?: string | null
  teamName?: string | null
}

export interface AdminUserEdit {
  userName?: string | null
  email?: string | null
  bio?: string | null
  phone?: string | null
  realName?: string | null
  stdNumber?: string | null
  emailConfirmed?: boolean | null
  role?: RoleName | null
}

/** `UserInfoModel`. */
export const presentUser = (u: UserRow) => ({
  id: u.id,
  userName: u.userName,
  realName: u.realName,
  stdNumber: u.stdNumber,
  phone: u.phone,
  bio: u.bio,
  registerTimeUtc: u.registerTimeUtc.getTime(),
  lastVisitedUtc: u.lastVisitedUtc.getTime(),
  ip: u.ip,
  email: u.email,
  avatar: avatarUrl(u.avatarHash),
  role: ROLE_NAMES[u.role] ?? 'User',
  emailConfirmed: u.emailConfirmed,
})

/** Admin — users (api-contract §2.2): list, search, batch creation, edit, bans, password resets. */
export function createAdminUserService(deps: {
  db: Db
  sessions: SessionService
  blobs: BlobService
  audit: AuditService
  /** Memberships changed (a user went): cached registrations and boards must be re-read. */
  onMembershipChanged: () => void
  /** After an admin gave a user a new password (the first admin's password file goes then). */
  onPasswordChanged?: (userId: string) => Promise<void>
}) {
  const { db, sessions, blobs, audit } = deps

  async function requireUser(tx: DbOrTx, id: string) {
    const user = await findUserById(tx, id)
    if (!user) throw fail('Admin_UserNotFound')
    return user
  }

  const trail = (actor: SessionUser, ip: string, message: string) => audit.action('admin', actor, ip, message)

  /** One batch row: a new account, or (same name or e-mail) the existing one brought in line. */
  async function upsert(tx: DbOrTx, row: UserCreateInput, passwordHash: string): Promise<UserRow> {
    const fields = {
      userName: row.userName.trim(),
      email: row.email.trim(),
      realName: row.realName?.trim() ?? '',
      stdNumber: row.stdNumber?.trim() ?? '',
      phone: row.phone?.trim() || null,
      passwordHash,
    }
    const existing = (await findUserByName(tx, fields.userName)) ?? (await findUserByEmail(tx, fields.email))
    if (existing) {
      await updateUser(tx, existing.id, fields)
      return { ...existing, ...fields }
    }
    return insertUser(tx, {
      ...fields,
      id: crypto.randomUUID(),
      emailConfirmed: true,
      registerTimeUtc: new Date(),
    })
  }

  return {
    async page(countLimit: number, skip: number) {
      const [rows, [total]] = await Promise.all([
        db.select().from(users).orderBy(asc(users.id)).limit(countLimit).offset(skip),
        db.select({ n: count() }).from(users),
      ])
      return { data: rows.map(presentUser), length: rows.length, total: total?.n ?? 0 }
    },

    async search(hint: string) {
      const pattern = `%${escapeLike(hint.trim())}%`
      const rows = await db
        .select()
        .from(users)
        .where(
          or(
            ilike(users.userName, pattern),
            ilike(users.stdNumber, pattern),
            ilike(users.email, pattern),
            ilike(users.phone, pattern),
            ilike(users.realName, pattern),
            ilike(sql`${users.id}::text`, pattern),
          ),
        )
        .orderBy(asc(users.id))
        .limit(SEARCH_LIMIT)
      return { data: rows.map(presentUser), length: rows.length, total: rows.length }
    },

    async detail(id: string) {
      return presentProfile(await requireUser(db, id))
    },

    /**
     * Creates (or updates, by name or e-mail) every row in one transaction, then the teams the
     * rows name: the first row naming a team captains it. A failing row names itself in the 400.
     */
    async createBatch(actor: SessionUser, ip: string, rows: UserCreateInput[]) {
      const label = (i: number) => `Row ${i + 1} (${rows[i]!.userName.trim()})`
      rows.forEach((row, i) => {
        if (!isStrongPassword(row.password))
          throw failWith(400, `${label(i)}: ${fail('Account_PasswordWeak').message}`)
      })
      // Hashing first keeps the transaction (and its row locks) short.
      const hashes = await Promise.all(rows.map((row) => hashPassword(row.password)))
      const touched = await db.transaction(async (tx) => {
        const done: UserRow[] = []
        const teamIds = new Map<string, number>()
        for (const [i, row] of rows.entries()) {
          let user: UserRow
          try {
            user = await upsert(tx, row, hashes[i]!)
          } catch (err) {
            if (err instanceof AppError) throw failWith(400, `${label(i)}: ${err.message}`)
            throw err
          }
          done.push(user)
          const teamName = row.teamName?.trim()
          if (!teamName) continue
          let teamId = teamIds.get(teamName)
          if (teamId === undefined) {
            const [team] = await tx
              .insert(teams)
              .values({ name: teamName, inviteToken: newInviteToken(), captainId: user.id })
              .returning({ id: teams.id })
            teamId = team!.id
            teamIds.set(teamName, teamId)
          }
          await tx.insert(teamMembers).values({ teamId, userId: user.id }).onConflictDoNothing()
        }
        return { users: done, teams: teamIds.size }
      })
      // Accounts that existed got a new password: their old sessions end.
      for (const user of touched.users) await sessions.destroyAllFor(user.id)
      deps.onMembershipChanged()
      trail(actor, ip, `${actor.userName} created or updated ${rows.length} users and ${touched.teams} teams`)
    },

    async update(actor: SessionUser, ip: string, id: string, input: AdminUserEdit) {
      const user = await requireUser(db, id)
      const role = input.role == null ? undefined : RoleValues[input.role]
      if (role !== undefined && role !== user.role && id === actor.id)
        throw fail('Admin_SelfRoleChangeNotAllowed')
      // Only what differs is written and logged: the edit dialog sends every field.
      const patch: Partial<UserRow> = {}
      const userName = input.userName?.trim()
      if (userName && userName !== user.userName) patch.userName = userName
      const email = input.email?.trim()
      if (email && email.toLowerCase() !== user.email.toLowerCase()) {
        patch.email = email
        patch.emailConfirmed = input.emailConfirmed ?? false
      }
      const phone = input.phone == null ? undefined : input.phone.trim() || null
      const wanted: Partial<UserRow> = {
        bio: input.bio ?? undefined,
        phone,
        realName: input.realName ?? undefined,
        stdNumber: input.stdNumber ?? undefined,
        emailConfirmed: patch.email ? undefined : (input.emailConfirmed ?? undefined),
        role,
      }
      for (const [key, value] of Object.entries(wanted) as [keyof UserRow, never][])
        if (value !== undefined && value !== user[key]) patch[key] = value
      if (!Object.keys(patch).length) return
      await updateUser(db, id, patch)
      sessions.forgetUser(id)
      // A ban ends every session at once, not at the next sign-in.
      if (patch.role === RoleValues.Banned) await sessions.destroyAllFor(id)
      trail(
        actor,
        ip,
        patch.role !== undefined
          ? `${actor.userName} made ${user.userName} ${ROLE_NAMES[patch.role]}`
          : `${actor.userName} edited ${user.userName} (${Object.keys(patch).join(', ')})`,
      )
    },

    /** A new random password; the user's sessions end. */
    async resetPassword(actor: SessionUser, ip: string, id: string): Promise<string> {
      const user = await requireUser(db, id)
      const password = generatePassword(randomInt)
      // The admin has seen it: the user is asked to choose their own at the next sign-in.
      await updateUser(db, id, { passwordHash: await hashPassword(password), passwordChangeRequired: true })
      await sessions.destroyAllFor(id)
      await deps.onPasswordChanged?.(id)
      trail(actor, ip, `${actor.userName} reset the password of ${user.userName}`)
      return password
    },

    async remove(actor: SessionUser, ip: string, id: string) {
      if (id === actor.id) throw fail('Admin_SelfDeletionNotAllowed')
      const user = await requireUser(db, id)
      const [captain] = await db.select({ id: teams.id }).from(teams).where(eq(teams.captainId, id)).limit(1)
      if (captain) throw fail('Admin_CaptainDeletionNotAllowed')
      // Memberships, registrations and sessions go with the row; submissions stay, unattributed.
      await retryConflicts(() => db.delete(users).where(eq(users.id, id)))
      sessions.forgetUser(id)
      await blobs.release(user.avatarHash)
      deps.onMembershipChanged()
      trail(actor, ip, `${actor.userName} deleted the user ${user.userName}`)
    },
  }
}
export type AdminUserService = ReturnType<typeof createAdminUserService>
