import { eq, sql } from 'drizzle-orm'
import { isUniqueViolation } from '../../db/errors.ts'
import type { DbOrTx } from '../../db/index.ts'
import { users } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'

export type UserRow = typeof users.$inferSelect
export type NewUser = typeof users.$inferInsert

export const normaliseName = (name: string) => name.trim().toLowerCase()
export const normaliseEmail = (email: string) => email.trim().toLowerCase()

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id))
  return row
}

export async function findUserByName(db: DbOrTx, name: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.normalizedUserName, normaliseName(name)))
  return row
}

export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.normalizedEmail, normaliseEmail(email)))
  return row
}

/** Turns the two unique indexes into the catalogue's "taken" errors. */
function translate(err: unknown): never {
  if (isUniqueViolation(err, 'users_normalized_user_name_key')) throw fail('Account_UserNameUsed')
  if (isUniqueViolation(err, 'users_normalized_email_key')) throw fail('Account_EmailUsed')
  throw err
}

export async function insertUser(db: DbOrTx, user: Omit<NewUser, 'normalizedUserName' | 'normalizedEmail'>) {
  try {
    const [row] = await db
      .insert(users)
      .values({
        ...user,
        normalizedUserName: normaliseName(user.userName),
        normalizedEmail: normaliseEmail(user.email),
      })
      .returning()
    return row!
  } catch (err) {
    translate(err)
  }
}

export async function updateUser(db: DbOrTx, id: string, patch: Partial<NewUser>): Promise<void> {
  const set: Partial<NewUser> = { ...patch }
  if (patch.userName !== undefined) set.normalizedUserName = normaliseName(patch.userName)
  if (patch.email !== undefined) set.normalizedEmail = normaliseEmail(patch.email)
  try {
    await db.update(users).set(set).where(eq(users.id, id))
  } catch (err) {
    translate(err)
  }
}

export async function hasAdmin(db: DbOrTx): Promise<boolean> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(users).where(eq(users.role, 3))
  return (row?.n ?? 0) > 0
}
