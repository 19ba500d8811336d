import { type RoleName, RoleValues } from '../../http/schema.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import type { UserRow } from './users.queries.ts'

/** Role names by stored value (Banned 0 … Admin 3). */
export const ROLE_NAMES = Object.keys(RoleValues) as RoleName[]

/** `ProfileUserInfoModel`. */
export const presentProfile = (u: UserRow) => ({
  userId: u.id,
  userName: u.userName,
  email: u.email,
  bio: u.bio,
  phone: u.phone,
  realName: u.realName,
  stdNumber: u.stdNumber,
  avatar: avatarUrl(u.avatarHash),
  role: ROLE_NAMES[u.role] ?? 'User',
})

/** The caller's own profile: `ProfileUserInfoModel` and whether they must choose a new password. */
export const presentOwnProfile = (u: UserRow) => ({
  ...presentProfile(u),
  passwordChangeRequired: u.passwordChangeRequired,
})
