/** The checks shown under a new password (the server requires all but `symbol`). */
export interface PasswordChecks {
  length: boolean
  digit: boolean
  lower: boolean
  upper: boolean
  symbol: boolean
}

export const MIN_PASSWORD_LENGTH = 6

export function passwordChecks(password: string): PasswordChecks {
  return {
    length: password.length >= MIN_PASSWORD_LENGTH,
    digit: /\p{N}/u.test(password),
    lower: /\p{Ll}/u.test(password),
    upper: /\p{Lu}/u.test(password),
    symbol: /[^\p{L}\p{N}]/u.test(password),
  }
}

/**
 * What the server accepts (game-engine §10.1): at least 6 characters with a digit, a
 * lowercase and an uppercase letter. A symbol only makes the meter fuller.
 */
export function meetsPolicy(password: string): boolean {
  const c = passwordChecks(password)
  return c.length && /\d/.test(password) && c.lower && c.upper
}

/** 0–100 for the meter: one fifth per check met, and never full while the length is short. */
export function passwordStrength(password: string): number {
  if (!password) return 0
  const checks = passwordChecks(password)
  const met = Object.values(checks).filter(Boolean).length
  const score = (met / 5) * 100
  return checks.length ? score : Math.min(score, 40)
}
