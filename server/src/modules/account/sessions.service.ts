import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt, inArray, lt, ne } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { sessions, users } from '../../db/schema.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Bus, BusTopics } from '../../infra/bus/index.ts'
import { createMemo } from '../../infra/cache/memo.ts'

export const SESSION_LIFETIME_MS = 7 * 24 * 3600 * 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/** Cookie sessions: opaque random tokens, stored hashed, 7-day sliding expiry. */
export function createSessionService(deps: { db: Db; cacheMs?: number; bus?: Bus }) {
  const { db, bus } = deps
  // Every request resolves its session: remembered briefly, forgotten on sign-out and role change.
  const cache = createMemo<string, SessionUser>(deps.cacheMs ?? 5_000)
  // The sessions missed in one turn of the event loop are read by one query: a burst of players
  // whose sessions expired from the cache costs one round trip, not one each.
  type Waiting = { resolve: (user: SessionUser | null) => void; reject: (err: unknown) => void }
  let misses = new Map<string, Waiting[]>()
  let missTimer: NodeJS.Immediate | null = null
  /** Bumped by every sign-out or change: reads that started before it do not refill the cache. */
  let generation = 0

  // What is forgotten here is forgotten on every server: the bus carries it (with Redis, to the
  // other servers too), and the subscriber below does the forgetting, here as everywhere.
  function apply(m: BusTopics['cache.forget']) {
    if (m.what === 'session') {
      generation++
      cache.delete(m.sessionId)
    } else if (m.what === 'user') {
      generation++
      cache.deleteWhere((id, u) => u.id === m.userId && id !== m.keep)
    }
  }
  const forget = (m: BusTopics['cache.forget']) => (bus ? bus.publish('cache.forget', m) : apply(m))
  bus?.subscribe('cache.forget', apply)

  async function readMisses() {
    missTimer = null
    const batch = misses
    misses = new Map()
    const started = generation
    try {
      const rows = await db
        .select({
          sessionId: sessions.id,
          id: users.id,
          userName: users.userName,
          email: users.email,
          role: users.role,
          lastVisitedUtc: users.lastVisitedUtc,
          expiresAt: sessions.expiresAt,
        })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(inArray(sessions.id, [...batch.keys()]), gt(sessions.expiresAt, new Date())))
      const found = new Map<string, SessionUser>(rows.map((r) => [r.sessionId, r]))
      for (const [id, waiting] of batch) {
        const user = found.get(id) ?? null
        if (user && started === generation) cache.set(id, user)
        for (const w of waiting) w.resolve(user)
      }
    } catch (err) {
      for (const waiting of batch.values()) for (const w of waiting) w.reject(err)
    }
  }

  return {
    /** Starts a session; returns the token for the cookie. */
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString('base64url')
      const now = new Date()
      const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS)
      await db.insert(sessions).values({ id: hashToken(token), userId, createdAt: now, expiresAt })
      return { token, expiresAt }
    },

    resolve(token: string): Promise<SessionUser | null> | SessionUser | null {
      if (token.length > 128) return null
      const id = hashToken(token)
      const cached = cache.get(id)
      if (cached && cached.expiresAt.getTime() > Date.now()) return cached
      return new Promise((resolve, reject) => {
        const waiting = misses.get(id)
        if (waiting) waiting.push({ resolve, reject })
        else misses.set(id, [{ resolve, reject }])
        if (!missTimer) missTimer = setImmediate(readMisses)
      })
    },

    /** Drops what is remembered of a user's sessions (after a role or name change). */
    forgetUser(userId: string) {
      forget({ what: 'user', userId })
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
      forget({ what: 'session', sessionId })
      await db.delete(sessions).where(eq(sessions.id, sessionId))
    },

    /** Signs a user out everywhere, optionally keeping the current session. */
    async destroyAllFor(userId: string, keepSessionId?: string): Promise<void> {
      forget({ what: 'user', userId, keep: keepSessionId })
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
