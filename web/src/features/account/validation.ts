import { isStrongPassword, PASSWORD_MIN_LENGTH } from '@engine/password.ts'

/**
 * Client-side checks of the account forms, as i18n keys under `account.error` (or null when
 * fine). They mirror the server's rules so most mistakes are caught before a round trip; the
 * server still has the last word.
 */
export type FieldProblem =
  | 'required'
  | 'email'
  | 'user_name_length'
  | 'password_short'
  | 'password_weak'
  | 'retype'
  | 'bio_long'
  | 'phone'

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/
/** The server's phone format: digits with the usual separators, optionally a leading +. */
const PHONE = /^\+?[0-9][0-9 ().-]{2,30}$/

export const USER_NAME_MIN = 3
export const USER_NAME_MAX = 15
export const BIO_MAX = 128

export function checkEmail(value: string): FieldProblem | null {
  if (!value.trim()) return 'required'
  return EMAIL.test(value.trim()) ? null : 'email'
}

export function checkUserName(value: string): FieldProblem | null {
  // UTF-16 code units, as the server counts (docs/differences.md).
  const length = value.trim().length
  if (!length) return 'required'
  return length < USER_NAME_MIN || length > USER_NAME_MAX ? 'user_name_length' : null
}

/** The login form: any non-empty name, a password of at least 6 characters. */
export function checkLoginPassword(value: string): FieldProblem | null {
  if (!value) return 'required'
  return value.length < PASSWORD_MIN_LENGTH ? 'password_short' : null
}

/** A new password must pass the server's policy. */
export function checkNewPassword(value: string): FieldProblem | null {
  if (!value) return 'required'
  if (value.length < PASSWORD_MIN_LENGTH) return 'password_short'
  return isStrongPassword(value) ? null : 'password_weak'
}

export function checkRetype(password: string, retype: string): FieldProblem | null {
  return password === retype ? null : 'retype'
}

export function checkBio(value: string): FieldProblem | null {
  return value.length > BIO_MAX ? 'bio_long' : null
}

/** Optional: empty is fine. */
export function checkPhone(value: string): FieldProblem | null {
  return !value.trim() || PHONE.test(value.trim()) ? null : 'phone'
}
