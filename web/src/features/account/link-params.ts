/**
 * The `token` and `email` of a mailed link (`/account/verify?token=…&email=…`): both base64,
 * posted back unchanged. Only the address is decoded, to greet the user with it.
 */
export interface LinkParams {
  token: string
  email: string
  /** The address the link is for, or null when `email` is not base64 of text. */
  address: string | null
}

/** Base64 (standard or URL-safe) of UTF-8 text → the text; null when it is not that. */
export function decodeBase64Text(value: string): string | null {
  // A "+" in an unencoded query string arrives as a space.
  let normalised = value.trim().replace(/ /g, '+').replace(/-/g, '+').replace(/_/g, '/')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(normalised)) return null
  normalised = normalised.replace(/=+$/, '')
  if (normalised.length % 4 === 1) return null
  normalised += '='.repeat((4 - (normalised.length % 4)) % 4)
  try {
    const binary = atob(normalised)
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0))
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return text || null
  } catch {
    return null
  }
}

/** Both parameters, or null when either is missing. */
export function readLinkParams(search: URLSearchParams): LinkParams | null {
  const token = search.get('token')
  const email = search.get('email')
  if (!token || !email) return null
  return { token, email, address: decodeBase64Text(email) }
}
