/**
 * Where the HTML page leaves the answers it started, by URL, for `prefetch` to take (vite.config.ts
 * writes the page; app/early-data.ts says which answers each page starts).
 */
export const EARLY_GLOBAL = 'pennantEarly'

/**
 * Answers only a signed-in browser gets (anonymous: 401). They are not asked for without the
 * server's readable hint that this browser holds a session (server/src/http/auth.ts), so an
 * anonymous page logs no failed request in the console.
 */
export const SESSION_DATA: readonly string[] = ['/api/account/profile']
export const SIGNED_IN_COOKIE = 'pennant_signed_in'
