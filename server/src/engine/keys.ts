import { createPrivateKey, createPublicKey, generateKeyPairSync, sign, verify } from 'node:crypto'

/**
 * Ed25519 keys of a game: they sign team tokens (`<teamId>:<base64 signature of
 * "GZCTF_TEAM_<teamId>">`) that teams can prove their participation with.
 * Keys travel as base64 of the raw 32 bytes.
 */
export function newGameKeys(): { publicKey: string; privateKey: string } {
  const { publicKey, privateKey } = generateKeyPairSync('ed25519')
  const pub = publicKey.export({ format: 'jwk' }).x!
  const priv = privateKey.export({ format: 'jwk' }).d!
  return {
    publicKey: Buffer.from(pub, 'base64url').toString('base64'),
    privateKey: Buffer.from(priv, 'base64url').toString('base64'),
  }
}

const teamMessage = (teamId: number) => Buffer.from(`GZCTF_TEAM_${teamId}`, 'ascii')

export function signTeamToken(teamId: number, keys: { publicKey: string; privateKey: string }): string {
  const key = createPrivateKey({
    format: 'jwk',
    key: {
      kty: 'OKP',
      crv: 'Ed25519',
      d: Buffer.from(keys.privateKey, 'base64').toString('base64url'),
      x: Buffer.from(keys.publicKey, 'base64').toString('base64url'),
    },
  })
  return `${teamId}:${sign(null, teamMessage(teamId), key).toString('base64')}`
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/

/**
 * Checks a team token against a game's public key. Returns null when the inputs are malformed
 * (a 400 for the caller), otherwise whether the signature is valid.
 */
export function verifyTeamToken(teamToken: string, publicKeyB64: string): boolean | null {
  if (!BASE64.test(publicKeyB64)) return null
  const raw = Buffer.from(publicKeyB64, 'base64')
  if (raw.length !== 32) return null
  const colon = teamToken.indexOf(':')
  if (colon < 1) return null
  const idText = teamToken.slice(0, colon)
  const signature = teamToken.slice(colon + 1)
  if (!/^\d{1,9}$/.test(idText) || !signature || !BASE64.test(signature)) return null
  const sig = Buffer.from(signature, 'base64')
  if (sig.length !== 64) return false
  const key = createPublicKey({
    format: 'jwk',
    key: { kty: 'OKP', crv: 'Ed25519', x: raw.toString('base64url') },
  })
  return verify(null, teamMessage(Number(idText)), key, sig)
}
