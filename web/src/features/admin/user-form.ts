/**
 * The admin's edit forms for a user and a team: values from the list item, the problems the
 * server would refuse, and the request body. Pure, tested on its own.
 */
import type { Body, Ok, Role } from '@/api/types'
import { BATCH_LIMITS, isEmail, isPhone } from './user-batch'

export type AdminUser = Ok<'/api/admin/users'>['data'][number]
export type AdminTeam = Ok<'/api/admin/teams'>['data'][number]
export type UserUpdate = Body<'/api/admin/users/{userid}', 'put'>
export type TeamUpdate = Body<'/api/admin/teams/{id}', 'put'>

export const BIO_MAX = 128
export const TEAM_BIO_MAX = 72

export interface UserForm {
  userName: string
  email: string
  emailConfirmed: boolean
  role: Role
  realName: string
  stdNumber: string
  phone: string
  bio: string
}

/** A problem as a key under `admin.users.error` with its values. */
export interface FieldError {
  code: 'required' | 'too_short' | 'too_long' | 'email_invalid' | 'phone_invalid'
  params?: Record<string, number>
}

export const userFormOf = (user: AdminUser): UserForm => ({
  userName: user.userName,
  email: user.email,
  emailConfirmed: user.emailConfirmed,
  role: user.role,
  realName: user.realName,
  stdNumber: user.stdNumber,
  phone: user.phone ?? '',
  bio: user.bio,
})

const tooLong = (value: string, max: number): FieldError | undefined =>
  value.length > max ? { code: 'too_long', params: { max } } : undefined

export function userFormErrors(form: UserForm): Partial<Record<keyof UserForm, FieldError>> {
  const errors: Partial<Record<keyof UserForm, FieldError>> = {}
  const name = form.userName.trim()
  if (!name) errors.userName = { code: 'required' }
  else if (name.length < BATCH_LIMITS.userNameMin)
    errors.userName = { code: 'too_short', params: { min: BATCH_LIMITS.userNameMin } }
  else errors.userName = tooLong(name, BATCH_LIMITS.userNameMax)

  const email = form.email.trim()
  if (!email) errors.email = { code: 'required' }
  else
    errors.email =
      tooLong(email, BATCH_LIMITS.emailMax) ?? (isEmail(email) ? undefined : { code: 'email_invalid' })

  const phone = form.phone.trim()
  if (phone)
    errors.phone =
      tooLong(phone, BATCH_LIMITS.phoneMax) ?? (isPhone(phone) ? undefined : { code: 'phone_invalid' })
  errors.realName = tooLong(form.realName, BATCH_LIMITS.realNameMax)
  errors.stdNumber = tooLong(form.stdNumber, BATCH_LIMITS.stdNumberMax)
  errors.bio = tooLong(form.bio, BIO_MAX)
  for (const key of Object.keys(errors) as (keyof UserForm)[]) if (!errors[key]) delete errors[key]
  return errors
}

/**
 * The request body. Every field is sent (an empty phone clears it); the role is left out when
 * the admin edits themself, which the server refuses to change.
 */
export function toUserUpdate(form: UserForm, self: boolean): UserUpdate {
  return {
    userName: form.userName.trim(),
    email: form.email.trim(),
    emailConfirmed: form.emailConfirmed,
    realName: form.realName.trim(),
    stdNumber: form.stdNumber.trim(),
    phone: form.phone.trim(),
    bio: form.bio,
    ...(self ? {} : { role: form.role }),
  }
}

export interface TeamForm {
  name: string
  bio: string
}

export const teamFormOf = (team: AdminTeam): TeamForm => ({ name: team.name, bio: team.bio ?? '' })

export function teamFormErrors(form: TeamForm): Partial<Record<keyof TeamForm, FieldError>> {
  const errors: Partial<Record<keyof TeamForm, FieldError>> = {}
  const name = form.name.trim()
  if (!name) errors.name = { code: 'required' }
  else if (name.length > BATCH_LIMITS.teamNameMax)
    errors.name = { code: 'too_long', params: { max: BATCH_LIMITS.teamNameMax } }
  if (form.bio.length > TEAM_BIO_MAX) errors.bio = { code: 'too_long', params: { max: TEAM_BIO_MAX } }
  return errors
}

/** The team body. The server keeps a field sent empty: an emptied bio stays as it was. */
export function toTeamUpdate(form: TeamForm): TeamUpdate {
  return { name: form.name.trim(), bio: form.bio.trim() || null }
}

/** Members with the captain first, then by name. */
export function sortMembers<M extends { userName: string; captain: boolean }>(members: readonly M[]): M[] {
  return [...members].sort(
    (a, b) => Number(b.captain) - Number(a.captain) || a.userName.localeCompare(b.userName),
  )
}
