import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto'

/**
 * API token strings (api-contract §2.3): `<payload>.<signature>`, both base64url without padding;
 * the payload is the compact JSON `{"jti":"<token id>","iat":<unix s>[,"exp":<unix s>]}` and the
 * signature an Ed25519 signature of the payload text with the platform's token key.
 */
export interface ApiTokenPayload {
  jti: string
  iat: number
  exp?: number
}

/** A key pair as base64 of the raw 32-byte keys (as `newGameKeys` makes them). */
export interface TokenKeys {
  publicKey: string
  privateKey: string
}

const jwk = (keys: TokenKeys) => ({
  kty: 'OKP',
  crv: 'Ed25519',
  x: Buffer.from(keys.publicKey, 'base64').toString('base64url'),
  d: Buffer.from(keys.privateKey, 'base64').toString('base64url'),
})

export function signApiToken(payload: ApiTokenPayload, keys: TokenKeys): string {
  const body = Buffer.from(JSON.stringify(payload)).toString('base64url')
  const key = createPrivateKey({ format: 'jwk', key: jwk(keys) })
  return `${body}.${sign(null, Buffer.from(body, 'ascii'), key).toString('base64url')}`
}

const PART = /^[A-Za-z0-9_-]+$/

/** The payload of a token signed with `keys`, or null for anything else (malformed, forged, expired). */
export function readApiToken(token: string, keys: TokenKeys, nowMs = Date.now()): ApiTokenPayload | null {
  if (token.length > 512) return null
  const [body, signature, extra] = token.split('.')
  if (!body || !signature || extra !== undefined || !PART.test(body) || !PART.test(signature)) return null
  const key = createPublicKey({ format: 'jwk', key: { kty: 'OKP', crv: 'Ed25519', x: jwk(keys).x } })
  const sig = Buffer.from(signature, 'base64url')
  if (sig.length !== 64 || !verify(null, Buffer.from(body, 'ascii'), key, sig)) return null
  let payload: unknown
  try {
    payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'))
  } catch {
    return null
  }
  const p = payload as Partial<ApiTokenPayload>
  if (typeof p.jti !== 'string' || typeof p.iat !== 'number') return null
  if (p.exp !== undefined && (typeof p.exp !== 'number' || p.exp * 1000 <= nowMs)) return null
  return p as ApiTokenPayload
}
