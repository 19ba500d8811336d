import { type Static, Type } from 'typebox'
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../engine/password.ts'
import { Enum, Nullable, RequiredString, Role } from '../../http/schema.ts'

export const UserName = RequiredString({
  minLength: 3,
  maxLength: 15,
  description: 'User name, 3 to 15 characters',
})
export const Email = Type.String({ format: 'email', maxLength: 256, description: 'E-mail address' })
export const Password = RequiredString({ maxLength: PASSWORD_MAX_LENGTH, description: 'Password' })
/** The contract's `PasswordChangeModel` fields also have a minimum length. */
const PolicyPassword = RequiredString({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH })
/** Phone numbers: digits with the usual separators, optionally a leading +. */
// An empty string clears the number (null keeps it, as upstream).
export const Phone = Type.String({ pattern: '^(\\+?[0-9][0-9 ().-]{2,30})?$', maxLength: 32 })
const Challenge = Type.Optional(Nullable(Type.String({ maxLength: 4096, description: 'Captcha answer' })))

export const RegisterModel = Type.Object({
  userName: UserName,
  password: Password,
  email: Email,
  challenge: Challenge,
})
export const LoginModel = Type.Object({
  userName: RequiredString({ maxLength: 256, description: 'User name or e-mail address' }),
  password: Password,
  challenge: Challenge,
})
export const RecoveryModel = Type.Object({ email: Email, challenge: Challenge })
export const PasswordResetModel = Type.Object({
  password: Password,
  /** Base64 of the address, from the mailed link. */
  email: RequiredString({ maxLength: 1024 }),
  /** Base64 token, from the mailed link. */
  rToken: RequiredString({ maxLength: 1024 }),
})
export const AccountVerifyModel = Type.Object({
  token: RequiredString({ maxLength: 1024 }),
  email: RequiredString({ maxLength: 1024 }),
})
export const ProfileUpdateModel = Type.Object({
  userName: Type.Optional(Nullable(UserName)),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  phone: Type.Optional(Nullable(Phone)),
  realName: Type.Optional(Nullable(Type.String({ maxLength: 128 }))),
  stdNumber: Type.Optional(Nullable(Type.String({ maxLength: 64 }))),
})
export const PasswordChangeModel = Type.Object({
  old: PolicyPassword,
  new: PolicyPassword,
})
export const MailChangeModel = Type.Object({ newMail: Email })

export const RegisterStatus = Enum('RegisterStatus', {
  LoggedIn: 0,
  AdminConfirmationRequired: 1,
  EmailConfirmationRequired: 2,
})

export const ProfileUserInfoModel = Type.Object({
  userId: Type.String({ format: 'uuid' }),
  userName: Type.String(),
  email: Type.String(),
  bio: Type.String(),
  phone: Nullable(Type.String()),
  realName: Type.String(),
  stdNumber: Type.String(),
  /** `/assets/<hash>/avatar`, or null. */
  avatar: Nullable(Type.String()),
  role: Role,
})
export type ProfileUserInfoModel = Static<typeof ProfileUserInfoModel>

/** `GET /api/account/profile`: the profile, plus (a Pennant addition) whether to pick a new password. */
export const OwnProfileModel = Type.Object({
  ...ProfileUserInfoModel.properties,
  passwordChangeRequired: Type.Boolean(),
})
