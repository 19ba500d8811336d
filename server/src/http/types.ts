import '@fastify/cookie'
import '@fastify/multipart'
import type { PolicyName } from '../infra/rate-limit/index.ts'
import type { Culture } from './culture.ts'
import type { ErrorKey } from './errors.ts'

/** Who is calling, as every route sees it. */
export interface SessionUser {
  id: string
  userName: string
  email: string
  /** Role value: Banned 0, User 1, Monitor 2, Admin 3. */
  role: number
  lastVisitedUtc: Date
  /** The session's id (hash of the cookie token). */
  sessionId: string
  expiresAt: Date
}

/**
 * What the http layer writes to the admin log (a denied role, a server error): the log's service
 * takes this and more; app.ts hands it over, so this layer does not import the modules.
 */
export interface AuditWriter {
  write(entry: {
    level: 'Warning' | 'Error'
    logger: string
    message: string
    status: 'Denied' | 'Failed'
    userName?: string
    ip: string
  }): void
}

/** Minimum role a route needs: `user` (User+), `monitor` (Monitor+), `admin`. */
export type AuthLevel = 'user' | 'monitor' | 'admin'

// The request and route-config typings; `app.deps`, which app.ts decorates, is typed there.
declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthLevel
    rateLimit?: PolicyName
    /** A POST that changes nothing (SignalR negotiation): no XSRF header needed. */
    xsrfExempt?: boolean
    /** Set by the auth plugin: the most an API token may do here; absent, tokens are not taken. */
    tokenScope?: number
  }
  interface FastifyRequest {
    /** The signed-in caller, or null when anonymous. */
    user: SessionUser | null
    /** The culture error titles are told in (api-contract §1.10). */
    culture: Culture
    /** A catalogue title (a success message's too) in the request's culture, `{0}`… filled. */
    localTitle(key: ErrorKey, params?: readonly (string | number)[]): string
  }
}
