import { createHash, randomUUID, timingSafeEqual } from 'node:crypto'
import { asc, eq } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { apiTokens, configs, users } from '../../db/schema.ts'
import { readApiToken, signApiToken, type TokenKeys } from '../../engine/api-token.ts'
import { newGameKeys } from '../../engine/keys.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'

type TokenRow = typeof apiTokens.$inferSelect
const DAY = 86_400_000
/** `lastUsedAt` is written at most this often per token. */
const USE_RECORD_MS = 60_000
/** Monitor: the least role a token's creator must hold now for the token to work at all. */
const MONITOR = 2

const sha256 = (text: string) => createHash('sha256').update(text).digest()

const present = (row: TokenRow, creator: string | null) => ({
  id: row.id,
  name: row.name,
  creatorId: row.creatorId,
  createdAt: row.createdAt.getTime(),
  expiresAt: row.expiresAt?.getTime() ?? null,
  lastUsedAt: row.lastUsedAt?.getTime() ?? null,
  isRevoked: row.isRevoked,
  creator,
})

/**
 * API tokens (api-contract §2.3): admins create, list, revoke, restore and delete them; a request
 * with `Authorization: Bearer <token>` acts, on the routes that accept tokens, with the role that
 * route's scope grants, capped by its creator's role now (see `tokenScope` in http/auth.ts).
 * Tokens are signed with the platform's key and stored only as their SHA-256.
 */
export function createApiTokenService(deps: { db: Db }) {
  const { db } = deps
  let keys: Promise<TokenKeys> | null = null
  const recorded = new Map<string, number>()

  /** The platform's token key pair, made on first use. */
  function platformKeys(): Promise<TokenKeys> {
    keys ??= (async () => {
      await db.insert(configs).values({ key: 'apiTokenKeys', value: newGameKeys() }).onConflictDoNothing()
      const [row] = await db.select().from(configs).where(eq(configs.key, 'apiTokenKeys'))
      return row!.value as TokenKeys
    })().catch((err: unknown) => {
      keys = null
      throw err
    })
    return keys
  }

  async function requireToken(id: string): Promise<TokenRow> {
    const [row] = await db.select().from(apiTokens).where(eq(apiTokens.id, id))
    if (!row) throw fail('Token_NotFound')
    return row
  }

  return {
    async create(actor: SessionUser, input: { name: string; expiresIn?: number | null }) {
      const id = randomUUID()
      const now = new Date()
      const expiresAt = input.expiresIn ? new Date(now.getTime() + input.expiresIn * DAY) : null
      const payload = {
        jti: id,
        iat: Math.floor(now.getTime() / 1000),
        ...(expiresAt ? { exp: Math.floor(expiresAt.getTime() / 1000) } : {}),
      }
      const token = signApiToken(payload, await platformKeys())
      const [row] = await db
        .insert(apiTokens)
        .values({
          id,
          name: input.name.trim(),
          creatorId: actor.id,
          tokenHash: sha256(token).toString('hex'),
          createdAt: now,
          expiresAt,
        })
        .returning()
      return { token, info: present(row!, actor.userName) }
    },

    async list() {
      const rows = await db
        .select({ token: apiTokens, creator: users.userName })
        .from(apiTokens)
        .leftJoin(users, eq(users.id, apiTokens.creatorId))
        .orderBy(asc(apiTokens.createdAt))
      return rows.map((r) => present(r.token, r.creator))
    },

    /** Returns the token's name (for the log). */
    async setRevoked(id: string, revoked: boolean): Promise<string> {
      const token = await requireToken(id)
      await db.update(apiTokens).set({ isRevoked: revoked }).where(eq(apiTokens.id, id))
      return token.name
    },

    /** Returns the token's name (for the log). */
    async remove(id: string): Promise<string> {
      const token = await requireToken(id)
      await db.delete(apiTokens).where(eq(apiTokens.id, id))
      return token.name
    },

    /**
     * The caller a bearer token stands for, named after the token, with the role `scope` (the
     * most the route grants a token; monitor by default) or its creator's role now, whichever is
     * lower. Null for anything but a valid, current, unrevoked token of this platform whose
     * creator is a monitor or admin now.
     */
    async resolve(token: string, scope: number = MONITOR): Promise<SessionUser | null> {
      const payload = readApiToken(token, await platformKeys())
      if (!payload || !/^[0-9a-f-]{36}$/.test(payload.jti)) return null
      // The creator's role is read with the token on every request (no cache), so demoting,
      // banning or deleting the creator stops the token on the next request, on every server.
      const [found] = await db
        .select({ token: apiTokens, creatorRole: users.role })
        .from(apiTokens)
        .innerJoin(users, eq(users.id, apiTokens.creatorId))
        .where(eq(apiTokens.id, payload.jti))
      const now = Date.now()
      const row = found?.token
      if (!row || row.isRevoked || (row.expiresAt && row.expiresAt.getTime() <= now)) return null
      // A token never does more than its scope, nor more than its creator may do now.
      if (found.creatorRole < MONITOR) return null
      const role = Math.min(scope, found.creatorRole)
      if (!timingSafeEqual(sha256(token), Buffer.from(row.tokenHash, 'hex'))) return null
      if (now - (recorded.get(row.id) ?? 0) > USE_RECORD_MS) {
        recorded.set(row.id, now)
        await db
          .update(apiTokens)
          .set({ lastUsedAt: new Date(now) })
          .where(eq(apiTokens.id, row.id))
      }
      return {
        id: row.creatorId ?? '00000000-0000-0000-0000-000000000000',
        userName: `token:${row.name}`.slice(0, 16),
        email: '',
        role,
        // A token is no visit: the role gate has nothing to record.
        lastVisitedUtc: new Date(now),
        sessionId: `token:${row.id}`,
        expiresAt: row.expiresAt ?? new Date(now + DAY),
      }
    },
  }
}
export type ApiTokenService = ReturnType<typeof createApiTokenService>
