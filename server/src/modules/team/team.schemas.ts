import { Type } from 'typebox'
import { Id, Nullable, RequiredString } from '../../http/schema.ts'

export const TeamUserInfoModel = Type.Object({
  id: Type.String({ format: 'uuid' }),
  userName: Type.String(),
  bio: Type.String(),
  avatar: Nullable(Type.String()),
  captain: Type.Boolean(),
})

export const TeamInfoModel = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  bio: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  /** Members cannot change while one of the team's games is unfinished. */
  locked: Type.Boolean(),
  members: Type.Array(TeamUserInfoModel),
})

export const TeamUpdateModel = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 72 }))),
})

export const TeamTransferModel = Type.Object({ newCaptainId: Type.String({ format: 'uuid' }) })

export const SignatureVerifyModel = Type.Object({
  teamToken: RequiredString({ maxLength: 256 }),
  publicKey: RequiredString({ maxLength: 256 }),
})

export const TeamParams = Type.Object({ id: Id })
export const KickParams = Type.Object({ id: Id, userId: Type.String({ format: 'uuid' }) })
