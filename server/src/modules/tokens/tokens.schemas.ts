import { Type } from 'typebox'
import { Nullable, RequiredString } from '../../http/schema.ts'

export const ApiTokenCreateModel = Type.Object({
  name: RequiredString({ maxLength: 128 }),
  /** Days until it expires; null or 0: never. */
  expiresIn: Type.Optional(Nullable(Type.Integer({ minimum: 0, maximum: 36500 }))),
})

export const ApiToken = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  creatorId: Nullable(Type.String({ format: 'uuid' })),
  createdAt: Type.Integer(),
  expiresAt: Nullable(Type.Integer()),
  lastUsedAt: Nullable(Type.Integer()),
  isRevoked: Type.Boolean(),
  /** The creator's user name. */
  creator: Nullable(Type.String()),
})

export const ApiTokenResponse = Type.Object({
  /** The token: shown this once, never again. */
  token: Type.String(),
  info: ApiToken,
})
