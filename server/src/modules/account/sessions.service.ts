import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, lt, ne } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { sessions, users } from '../../db/schema.ts'
import { createMemo } from '../../infra/cache/memo.ts'

export const SESSION_COOKIE = 'pennant_token'
export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000

/** Who is calling, as every route sees it. */
export interface SessionUser {
  id: string
  userName: string
  email: string
  /** Role value: Banned 0, User 1, Monitor 2, Admin 3. */
  role: number
  lastVisitedUtc: Date
  /** The session's id (hash of the cookie token). */
  sessionId: string
  expiresAt: Date
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Cookie sessions: opaque random tokens, stored hashed, 7-day sliding expiry. */
export function createSessionService(deps: { db: Db; cacheMs?: number }) {
  const { db } = deps
  // Every request resolves its session: remembered briefly, forgotten on sign-out and role change.
  const cache = createMemo<string, SessionUser>(deps.cacheMs ?? 5_000)
  return {
    /** Starts a session; returns the token for the cookie. */
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url')
      const now = new Date()
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS)
      await db.insert(sessions).values({ id: hashToken(token), userId, createdAt: now, expiresAt })
      return { token, expiresAt }
    },

    async resolve(token: string): Promise<SessionUser | null> {
      if (token.length > 128) return null
      const id = hashToken(token)
      const cached = cache.get(id)
      if (cached && cached.expiresAt.getTime() > Date.now()) return cached
      const [row] = await db
        .select({
          id: users.id,
          userName: users.userName,
          email: users.email,
          role: users.role,
          lastVisitedUtc: users.lastVisitedUtc,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.id, id), gt(sessions.expiresAt, new Date())))
      if (!row) return null
      const user = { ...row, sessionId: id }
      cache.set(id, user)
      return user
    },

    /** Drops what is remembered of a user's sessions (after a role or name change). */
    forgetUser(userId: string) {
      cache.deleteWhere((_, u) => u.id === userId)
    },

    /** Sliding expiry: once more than half the lifetime has passed, the session is extended. */
    async renewIfDue(user: SessionUser): Promise<Date | null> {
      const now = Date.now()
      if (user.expiresAt.getTime() - now > SESSION_LIFETIME_MS / 2) return null
      const expiresAt = new Date(now + SESSION_LIFETIME_MS)
      await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, user.sessionId))
      user.expiresAt = expiresAt
      return expiresAt
    },

    async destroy(sessionId: string): Promise<void> {
      cache.delete(sessionId)
      await db.delete(sessions).where(eq(sessions.id, sessionId))
    },

    /** Signs a user out everywhere, optionally keeping the current session. */
    async destroyAllFor(userId: string, keepSessionId?: string): Promise<void> {
      cache.deleteWhere((id, u) => u.id === userId && id !== keepSessionId)
      await db
        .delete(sessions)
        .where(and(eq(sessions.userId, userId), keepSessionId ? ne(sessions.id, keepSessionId) : undefined))
    },

    async purgeExpired(): Promise<void> {
      await db.delete(sessions).where(lt(sessions.expiresAt, new Date()))
    },
  }
}
export type SessionService = ReturnType<typeof createSessionService>
