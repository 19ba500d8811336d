import { Type } from 'typebox'
import { Nullable, RequiredString, Role, Timestamp } from '../../http/schema.ts'
import { Email, Password, Phone, UserName } from '../account/account.schemas.ts'

/** `UserInfoModel`: a user as the admin Users screen lists them. */
export const UserInfoModel = Type.Object({
  id: Type.String({ format: 'uuid' }),
  userName: Type.String(),
  realName: Type.String(),
  stdNumber: Type.String(),
  phone: Nullable(Type.String()),
  bio: Type.String(),
  registerTimeUtc: Timestamp(),
  lastVisitedUtc: Timestamp(),
  /** Address of the last visit, `0.0.0.0` before the first. */
  ip: Type.String(),
  email: Type.String(),
  avatar: Nullable(Type.String()),
  role: Role,
  emailConfirmed: Type.Boolean(),
})

/** One row of a batch creation. */
export const UserCreateModel = Type.Object({
  userName: UserName,
  password: Password,
  email: Email,
  realName: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  stdNumber: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  phone: Type.Optional(Nullable(Phone)),
  /** Users of one batch naming the same team form it; the first of them captains it. */
  teamName: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
})

// A batch is one transaction; its passwords are hashed first, about 20 ms of CPU each.
export const UserCreateBatch = Type.Array(UserCreateModel, { minItems: 1, maxItems: 500 })

/** `AdminUserInfoModel`: null or absent keeps a field. */
export const AdminUserInfoModel = Type.Object({
  userName: Type.Optional(Nullable(UserName)),
  email: Type.Optional(Nullable(Email)),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  phone: Type.Optional(Nullable(Phone)),
  realName: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  stdNumber: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
  emailConfirmed: Type.Optional(Nullable(Type.Boolean())),
  role: Type.Optional(Nullable(Role)),
})

export const UserIdParams = Type.Object({ userid: Type.String({ format: 'uuid' }) })
export const SearchQuery = Type.Object({ hint: RequiredString({ maxLength: 128 }) })
