/**
 * Argon2 password hashing, loaded with the first sign-in or sign-up rather than at start-up:
 * the native module, and the decoy hash computed with it, cost memory (argon2 works in ~19 MiB)
 * and start-up time a server that nobody has signed in to yet does not need.
 */
let argon2: Promise<typeof import('@node-rs/argon2')> | undefined
const load = () => {
  argon2 ??= import('@node-rs/argon2')
  return argon2
}

export const hashPassword = async (password: string) => (await load()).hash(password)

/**
 * The stored hash of an account made through an identity provider: it has no password, and no
 * password matches it (until a reset sets one).
 */
export const NO_PASSWORD = ''

export const verifyPassword = async (hash: string, password: string) =>
  hash !== NO_PASSWORD && (await load()).verify(hash, password)

let decoy: Promise<string> | undefined
/** Hash of a throw-away password: verifying against it keeps "no such user" as slow as "wrong password". */
export const decoyHash = () => {
  decoy ??= hashPassword('decoy-password-for-timing')
  return decoy
}
