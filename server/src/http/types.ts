import '@fastify/cookie'
import '@fastify/multipart'
import type { Config } from '../config/index.ts'
import type { Db } from '../db/index.ts'
import type { Clock } from '../infra/clock/index.ts'
import type { Infra } from '../infra/index.ts'
import type { SessionUser } from '../modules/account/sessions.service.ts'
import type { Services } from '../services.ts'
import type { Culture } from './culture.ts'
import type { ErrorKey } from './errors.ts'
import type { PolicyName } from './rate-limit.ts'

/** Minimum role a route needs: `user` (User+), `monitor` (Monitor+), `admin`. */
export type AuthLevel = 'user' | 'monitor' | 'admin'

// All decorator and route-config typings, in one place.
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
  interface FastifyInstance {
    deps: { config: Config; db: Db; infra: Infra; services: Services; clock: Clock }
  }
}
