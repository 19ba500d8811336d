import { type PasswordRules, passwordRules } from '@engine/password.ts'

/** The checks shown under a new password: the policy's rules (the server's), plus a symbol. */
export interface PasswordChecks extends PasswordRules {
  symbol: boolean
}

export function passwordChecks(password: string): PasswordChecks {
  return { ...passwordRules(password), symbol: /[^\p{L}\p{N}]/u.test(password) }
}

/** 0–100 for the meter: one fifth per check met, and never full while the length is short. */
export function passwordStrength(password: string): number {
  if (!password) return 0
  const checks = passwordChecks(password)
  const met = Object.values(checks).filter(Boolean).length
  const score = (met / 5) * 100
  return checks.length ? score : Math.min(score, 40)
}
