import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { Check, RateLimitStore } from '../infra/rate-limit/index.ts'
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

/**
 * Beside the HttpOnly session cookie, one the page can read, holding no secret: whether this
 * browser has a session. Without it the web client does not ask who is signed in, so an
 * anonymous visit logs no 401 (a failed request shows in the browser's console). It lives and
 * goes with the session cookie.
 */
export const SIGNED_IN_COOKIE = 'pennant_signed_in'

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date) {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, true, expires))
  reply.setCookie(SIGNED_IN_COOKIE, '1', cookieOptions(request, false, expires))
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, true))
  reply.clearCookie(SIGNED_IN_COOKIE, cookieOptions(request, false))
}

/**
 * The most an API token may do on a route, or undefined where tokens are not accepted. Monitor
 * routes grant a monitor's rights (read the game's events, submissions, cheat reports); the
 * organisers' edit API and the asset upload grant an admin's, so `pennant challenges sync` works
 * with a token. Nowhere else: a token cannot manage users, tokens, settings or teams.
 */
function tokenScope(route: RouteOptions): number | undefined {
  const methods = Array.isArray(route.method) ? route.method : [route.method]
  if (route.config?.auth === 'monitor') return REQUIRED_ROLE.monitor
  if (route.url.startsWith('/api/edit/')) return REQUIRED_ROLE.admin
  if (route.url === '/api/assets' && methods.includes('POST')) return REQUIRED_ROLE.admin
  return undefined
}

function declareTokenScope(route: RouteOptions) {
  const scope = tokenScope(route)
  if (scope !== undefined) route.config = { ...route.config, tokenScope: scope }
}

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
  /** A token's user, acting with at most the role `scope` (see `tokenScope`). */
  apiTokens: { resolve(token: string, scope: number): Promise<SessionUser | null> }
  /** Records the caller's visit. */
  touch(userId: string, ip: string): Promise<void>
  audit: AuditWriter
  /** Per process, or in Redis when several servers share the limits (closed with the infra). */
  limits: RateLimitStore
  rateLimitDisabled: boolean
  /** Rate windows are game time: tests move it (infra/clock). */
  clock: { now(): number }
}

export const authPlugin = fp(async (app: FastifyInstance, gate: GateOptions) => {
  const { sessions, apiTokens, audit, limits, clock } = gate
  app.addHook('onRoute', declareGateErrors)
  app.addHook('onRoute', declareTokenScope)
  app.decorateRequest('user', null)

  /** Counts the request against `checks` (one Redis round trip for all); 429 on a refusal. */
  async function limit(request: FastifyRequest, checks: Check[]) {
    if (!checks.length) return
    const verdict = await limits.hitAll(checks, clock.now())
    if (!verdict.allowed) {
      const seconds = Math.max(1, Math.ceil(verdict.retryAfterMs / 1000))
      const { policy, key } = checks.find((c) => c.policy === verdict.policy)!
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
        // A session from before the hint cookie existed gets it with its next answer.
        else if (!request.cookies[SIGNED_IN_COOKIE])
          reply.setCookie(SIGNED_IN_COOKIE, '1', cookieOptions(request, false, user.expiresAt))
      } else {
        clearSessionCookie(request, reply)
      }
    }

    // 1b. API tokens, on the routes whose scope takes them (tokenScope above).
    const bearer = request.headers.authorization
    const scope = request.routeOptions.config.tokenScope
    let byToken = false
    if (!request.user && scope !== undefined && bearer?.startsWith('Bearer ')) {
      request.user = await apiTokens.resolve(bearer.slice(7).trim(), scope)
      byToken = request.user !== null
    }

    // 2. XSRF: API callers get a token cookie; signed-in state changes must echo it in a header.
    const isApi = request.url.startsWith('/api/')
    const xsrf = request.cookies[XSRF_COOKIE]
    if (isApi && !xsrf) {
      reply.setCookie(XSRF_COOKIE, randomBytes(32).toString('base64url'), cookieOptions(request, false))
    }
    // XSRF protects cookies only: a page on another site cannot make a browser send a bearer
    // header, so a caller signed in by token alone needs no echo. A valid session cookie always
    // wins over a token (1b), and then the echo is needed as for any browser request.
    const needsEcho = !byToken && !request.routeOptions.config.xsrfExempt
    if (request.user && needsEcho && !SAFE_METHODS.has(request.method)) {
      const header = request.headers[XSRF_HEADER]
      if (!xsrf || typeof header !== 'string' || !sameToken(header, xsrf)) throw fail('Auth_XsrfInvalid')
    }

    // 3. Rate limits, per user when signed in, else per address.
    // Routes open to anonymous callers are counted by address even when a session is present,
    // or each freshly registered account would bring a fresh budget.
    if (!gate.rateLimitDisabled) {
      const { rateLimit: policy, auth } = request.routeOptions.config
      const byUser = request.user ? `u:${request.user.id}` : `ip:${request.ip}`
      const checks: Check[] = []
      if (!isLoopback(request.ip)) checks.push({ policy: 'Global', key: byUser })
      if (policy) checks.push({ policy, key: auth ? byUser : `ip:${request.ip}` })
      await limit(request, checks)
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
