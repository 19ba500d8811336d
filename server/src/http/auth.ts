import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { PolicyName, RateLimitStore } from '../infra/rate-limit/index.ts'
import { fail } from './errors.ts'
import { ErrorBody } from './schema.ts'
import type { AuditWriter, AuthLevel, SessionUser } from './types.ts'

export const SESSION_COOKIE = 'pennant_token'
export const XSRF_COOKIE = 'XSRF-TOKEN'
export const XSRF_HEADER = 'x-xsrf-token'
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const REQUIRED_ROLE: Record<AuthLevel, number> = { user: 1, monitor: 2, admin: 3 }
const VISIT_REFRESH_MS = 5_000

const isLoopback = (ip: string) => ip === '127.0.0.1' || ip === '::1' || ip === '::ffff:127.0.0.1'

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/** Cookie attributes shared by the session and XSRF cookies. */
export function cookieOptions(request: FastifyRequest, httpOnly: boolean, expires?: Date) {
  return { path: '/', sameSite: 'lax' as const, secure: request.protocol === 'https', httpOnly, expires }
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true, expires))
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, true))
}

/**
 * Every request passes, in order: session lookup, XSRF double-submit check, rate limits, role
 * gate (api-contract §1.5, §1.8; decisions.md items 3 and 4). Global so no module can skip it.
 */
/**
 * Adds to a route's declared answers (its OpenAPI entry) the errors this gate sends on it:
 * 429 from the global limit on every route (and a named policy), 403 for a missing XSRF header on
 * a state change, 401 and 403 on a route that needs a role, 400 wherever input is validated.
 */
function declareGateErrors(route: RouteOptions) {
  const schema = route.schema
  if (!schema || schema.hide) return
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  const sent = new Set([429])
  if (schema.body || schema.params || schema.querystring) sent.add(400)
  if (methods.some((m) => !SAFE_METHODS.has(m))) sent.add(403)
  if (route.config?.auth) {
    sent.add(401)
    sent.add(403)
  }
  // A copy: route files may share one response object between routes.
  const response = { ...((schema.response ?? {}) as Record<string, unknown>) }
  for (const status of sent) if (!(status in response)) response[status] = ErrorBody
  schema.response = response
}

/** What the gate needs; app.ts passes the account, token and log services, so http imports no module. */
export interface GateOptions {
  sessions: {
    resolve(token: string): Promise<SessionUser | null> | SessionUser | null
    renewIfDue(user: SessionUser): Promise<Date | null>
  }
  apiTokens: { resolve(token: string): Promise<SessionUser | null> }
  /** Records the caller's visit. */
  touch(userId: string, ip: string): Promise<void>
  audit: AuditWriter
  /** Per process, or in Redis when several servers share the limits (closed with the infra). */
  limits: RateLimitStore
  rateLimitDisabled: boolean
}

export const authPlugin = fp(async (app: FastifyInstance, gate: GateOptions) => {
  const { sessions, apiTokens, audit, limits } = gate
  app.addHook('onRoute', declareGateErrors)
  app.decorateRequest('user', null)

  async function limit(request: FastifyRequest, policy: PolicyName, key: string) {
    const verdict = await limits.hit(policy, key, Date.now())
    if (!verdict.allowed) {
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))
      request.log.info({ policy, key }, 'rate limited')
      throw fail('RateLimit_TooManyRequests', {
        params: [seconds],
        headers: { 'Retry-After': String(seconds) },
      })
    }
  }

  app.addHook('onRequest', async (request, reply) => {
    // 1. Session.
    const token = request.cookies[SESSION_COOKIE]
    if (token) {
      const user = await sessions.resolve(token)
      if (user) {
        request.user = user
        const renewed = await sessions.renewIfDue(user)
        if (renewed) setSessionCookie(request, reply, token, renewed)
      } else {
        clearSessionCookie(request, reply)
      }
    }

    // 1b. API tokens stand for a monitor, on the routes a monitor may use and nowhere else.
    const bearer = request.headers.authorization
    if (!request.user && request.routeOptions.config.auth === 'monitor' && bearer?.startsWith('Bearer ')) {
      request.user = await apiTokens.resolve(bearer.slice(7).trim())
    }

    // 2. XSRF: API callers get a token cookie; signed-in state changes must echo it in a header.
    const isApi = request.url.startsWith('/api/')
    const xsrf = request.cookies[XSRF_COOKIE]
    if (isApi && !xsrf) {
      reply.setCookie(XSRF_COOKIE, randomBytes(32).toString('base64url'), cookieOptions(request, false))
    }
    if (request.user && !SAFE_METHODS.has(request.method) && !request.routeOptions.config.xsrfExempt) {
      const header = request.headers[XSRF_HEADER]
      if (!xsrf || typeof header !== 'string' || !sameToken(header, xsrf)) throw fail('Auth_XsrfInvalid')
    }

    // 3. Rate limits, per user when signed in, else per address.
    // Routes open to anonymous callers are counted by address even when a session is present,
    // or each freshly registered account would bring a fresh budget.
    if (!gate.rateLimitDisabled) {
      const { rateLimit: policy, auth } = request.routeOptions.config
      const byUser = request.user ? `u:${request.user.id}` : `ip:${request.ip}`
      if (!isLoopback(request.ip)) await limit(request, 'Global', byUser)
      if (policy) await limit(request, policy, auth ? byUser : `ip:${request.ip}`)
    }

    // 4. Role gate.
    const need = request.routeOptions.config.auth
    if (!need) return
    const user = request.user
    if (!user) throw fail('Auth_LoginRequired')
    if (user.role < REQUIRED_ROLE[need]) {
      if (need !== 'user') {
        audit.write({
          level: 'Warning',
          logger: 'auth',
          message: `Denied ${request.method} ${request.url} to ${user.userName}`,
          status: 'Denied',
          userName: user.userName,
          ip: request.ip,
        })
      }
      throw fail('Auth_AccessForbidden')
    }
    const now = Date.now()
    if (now - user.lastVisitedUtc.getTime() > VISIT_REFRESH_MS) {
      // The remembered session shows the visit at once: one update per user per interval, not
      // one per request until the session is read again.
      user.lastVisitedUtc = new Date(now)
      gate
        .touch(user.id, request.ip)
        .catch((err: unknown) => request.log.warn({ err }, 'visit update failed'))
    }
  })
})
