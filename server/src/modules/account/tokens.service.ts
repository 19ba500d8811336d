import { createHash, randomBytes } from 'node:crypto'
import { and, eq, gt } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { userTokens } from '../../db/schema.ts'

export type TokenPurpose = 'confirm' | 'reset' | 'mail'
export const TOKEN_LIFETIME_MS = 3 * 3600 * 1000

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')

/**
 * Single-use tokens sent by mail. Only the hash is stored; a token is consumed by deleting its
 * row, so two concurrent uses cannot both succeed.
 */
export function createTokenService(deps: { db: Db }) {
  const { db } = deps
  return {
    async issue(userId: string, purpose: TokenPurpose, email: string): Promise<string> {
      const token = randomBytes(24).toString('base64url')
      await db.insert(userTokens).values({
        id: hashToken(token),
        userId,
        purpose,
        email,
        expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS),
      })
      return token
    },

    /** Consumes a valid token of this purpose and address; returns its user id, or null. */
    async consume(token: string, purpose: TokenPurpose, email: string): Promise<string | null> {
      if (!token || token.length > 128) return null
      const deleted = await db
        .delete(userTokens)
        .where(
          and(
            eq(userTokens.id, hashToken(token)),
            eq(userTokens.purpose, purpose),
            gt(userTokens.expiresAt, new Date()),
          ),
        )
        .returning({ userId: userTokens.userId, email: userTokens.email })
      const row = deleted[0]
      if (!row || row.email.toLowerCase() !== email.trim().toLowerCase()) return null
      return row.userId
    },

    /** Voids a user's outstanding tokens of one purpose (e.g. resets after the password changed). */
    async revokeAll(userId: string, purpose: TokenPurpose): Promise<void> {
      await db.delete(userTokens).where(and(eq(userTokens.userId, userId), eq(userTokens.purpose, purpose)))
    },
  }
}
export type TokenService = ReturnType<typeof createTokenService>
