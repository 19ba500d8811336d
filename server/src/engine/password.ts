/** Password policy (game-engine §10.1): at least 6 characters with a digit, a lowercase and an uppercase letter. */
export function isStrongPassword(password: string): boolean {
  return password.length >= 6 && /\d/.test(password) && /\p{Ll}/u.test(password) && /\p{Lu}/u.test(password)
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
