/**
 * Password policy (game-engine §10.1): at least 6 characters with a digit, a lowercase and an
 * uppercase letter. Lengths count UTF-16 code units, as the reference (.NET `string.Length`)
 * and the server's request validation do: an emoji is two. The server's checks and the web
 * forms both use these.
 */
export const PASSWORD_MIN_LENGTH = 6
/** The longest password a request model takes (a Pennant bound: hashing is costly). */
export const PASSWORD_MAX_LENGTH = 128

export interface PasswordRules {
  length: boolean
  digit: boolean
  lower: boolean
  upper: boolean
}

/** Each rule of the policy on its own, for forms that show them one by one. */
export function passwordRules(password: string): PasswordRules {
  return {
    length: password.length >= PASSWORD_MIN_LENGTH,
    digit: /\d/.test(password),
    lower: /\p{Ll}/u.test(password),
    upper: /\p{Lu}/u.test(password),
  }
}

export function isStrongPassword(password: string): boolean {
  const r = passwordRules(password)
  return r.length && r.digit && r.lower && r.upper
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*()-_=+'

/** A 16-character password with a digit, a lowercase, an uppercase and a special character. */
export function generatePassword(random: (n: number) => number): string {
  for (;;) {
    let out = ''
    for (let i = 0; i < 16; i++) out += ALPHABET[random(ALPHABET.length)]
    if (isStrongPassword(out) && /[!@#$%^&*()\-_=+]/.test(out)) return out
  }
}
