import { createHash, randomBytes } from 'node:crypto'
import { and, asc, count, eq } from 'drizzle-orm'
import { isUniqueViolation } from '../../db/errors.ts'
import type { Db } from '../../db/index.ts'
import { identityProviders, userIdentities } from '../../db/schema.ts'
import { AppError, fail } from '../../http/errors.ts'
import type { Cache } from '../../infra/cache/index.ts'
import { issuerAllowed, type OidcChecks, type OidcClient, OidcFailure } from '../../infra/oidc/index.ts'
import type { NewSession } from '../account/account.service.ts'
import { NO_PASSWORD } from '../account/password-hash.ts'
import type { SessionService } from '../account/sessions.service.ts'
import {
  findUserByEmail,
  findUserById,
  findUserByName,
  insertUser,
  updateUser,
} from '../account/users.queries.ts'
import type { AuditService } from '../logs/audit.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'

type ProviderRow = typeof identityProviders.$inferSelect

/**
 * Why a sign-in through a provider did not go through. The browser lands on the login (or
 * profile) page with `?oidcError=<reason>`, which the client words in the reader's language.
 */
export type OidcErrorReason =
  | 'off'
  | 'unknown_provider'
  | 'unreachable'
  | 'state'
  | 'denied'
  | 'exchange'
  | 'banned'
  | 'not_confirmed'
  | 'awaiting_activation'
  | 'email_missing'
  | 'email_unverified'
  | 'email_taken'
  | 'domain'
  | 'signup_closed'
  | 'already_linked'
  | 'already_has'
  | 'link_session'

/** One sign-in attempt between its start and its callback (kept server-side, keyed by a cookie). */
interface Flow extends OidcChecks {
  providerId: number
  redirectUri: string
  /** Where to go afterwards (a path on this site). */
  from: string
  /** Set when a signed-in user is linking their account rather than signing in. */
  linkUserId: string | null
}

/** The outcome of a callback: where to send the browser, and a session to open on the way. */
export type CallbackOutcome =
  | { redirect: string; session?: NewSession; error?: undefined }
  | { error: OidcErrorReason; link: boolean; from: string }

export const FLOW_COOKIE = 'pennant_oidc'
/** Long enough to sign in at a provider (with a second factor), short enough to be useless stolen. */
export const FLOW_TTL_MS = 10 * 60_000
const flowKey = (token: string) => `oidc:flow:${createHash('sha256').update(token).digest('hex')}`

/**
 * A path on this site to come back to, or `/`. Same rules as the client's `safeRedirect`: one
 * leading slash, no backslash right after it, no control characters or spaces.
 */
export function safeFrom(from: string | undefined | null): string {
  if (!from || from.length > 1024) return '/'
  if (!from.startsWith('/') || from.startsWith('//') || from.startsWith('/\\')) return '/'
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point
  if (/[\u0000-\u001f\u007f\s]/.test(from)) return '/'
  return from
}

/** A user name from a claim: 3 to 15 characters (the account rules), without control characters. */
function baseUserName(claim: unknown, email: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, '').trim()
  let name = typeof claim === 'string' ? clean(claim) : ''
  if ([...name].length < 3) name = clean(email.slice(0, email.indexOf('@')))
  name = [...name].slice(0, 15).join('').trim()
  if ([...name].length < 3) name = `user${name}`
  return name
}

const secretHint = (secret: string) => (secret.length >= 12 ? `…${secret.slice(-4)}` : '••••')

const emailVerified = (value: unknown) => value === true || value === 'true'

export function createOidcService(deps: {
  db: Db
  cache: Cache
  client: OidcClient
  settings: SettingsService
  sessions: SessionService
  audit: AuditService
}) {
  const { db, cache, client, settings, sessions, audit } = deps

  const ref = (p: ProviderRow) => ({ issuer: p.issuer, clientId: p.clientId, clientSecret: p.clientSecret })

  async function providerBySlug(slug: string): Promise<ProviderRow | undefined> {
    const [row] = await db
      .select()
      .from(identityProviders)
      .where(eq(identityProviders.slug, slug.toLowerCase()))
    return row
  }

  function checkIssuer(issuer: string) {
    if (!issuerAllowed(issuer)) throw fail('Oidc_IssuerInvalid')
  }

  /** Turns the slug index into the catalogue's "taken" error. */
  async function saving<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work()
    } catch (err) {
      if (isUniqueViolation(err, 'identity_providers_slug_key')) throw fail('Oidc_SlugUsed')
      throw err
    }
  }

  async function present(rows: ProviderRow[], redirectUri: (slug: string) => string) {
    const counts = await db
      .select({ providerId: userIdentities.providerId, n: count() })
      .from(userIdentities)
      .groupBy(userIdentities.providerId)
    const linked = new Map(counts.map((c) => [c.providerId, c.n]))
    return rows.map((p) => ({
      id: p.id,
      slug: p.slug,
      displayName: p.displayName,
      issuer: p.issuer,
      clientId: p.clientId,
      clientSecretHint: secretHint(p.clientSecret),
      userNameClaim: p.userNameClaim,
      emailClaim: p.emailClaim,
      allowSignUp: p.allowSignUp,
      enabled: p.enabled,
      linkedUsers: linked.get(p.id) ?? 0,
      redirectUri: redirectUri(p.slug),
    }))
  }

  /** A new user name from the claim, made unique by a number (or random digits) at its end. */
  async function freeUserName(base: string): Promise<string> {
    if (!(await findUserByName(db, base))) return base
    for (let n = 2; n < 50; n++) {
      const suffix = String(n)
      const name = [...base].slice(0, 15 - suffix.length).join('') + suffix
      if (!(await findUserByName(db, name))) return name
    }
    const suffix = randomBytes(3).toString('hex')
    return [...base].slice(0, 15 - suffix.length).join('') + suffix
  }

  async function openSession(userId: string, ip: string): Promise<NewSession> {
    const now = new Date()
    await updateUser(db, userId, { lastSignedInUtc: now, lastVisitedUtc: now, ip })
    return sessions.create(userId)
  }

  /** Reads and spends the flow named by the cookie: each start is good for one callback. */
  async function takeFlow(token: string | undefined): Promise<Flow | null> {
    if (!token || token.length > 128) return null
    const key = flowKey(token)
    const raw = await cache.get(key)
    if (!raw || !(await cache.take(key))) return null
    return JSON.parse(raw) as Flow
  }

  return {
    // --- Admin ---------------------------------------------------------------------------------

    async list(redirectUri: (slug: string) => string) {
      const rows = await db.select().from(identityProviders).orderBy(asc(identityProviders.id))
      return present(rows, redirectUri)
    },

    async create(
      input: {
        slug: string
        displayName: string
        issuer: string
        clientId: string
        clientSecret: string
        userNameClaim?: string
        emailClaim?: string
        allowSignUp?: boolean
        enabled?: boolean
      },
      redirectUri: (slug: string) => string,
    ) {
      checkIssuer(input.issuer)
      const [row] = await saving(() =>
        db
          .insert(identityProviders)
          .values({
            ...input,
            issuer: input.issuer.trim(),
            displayName: input.displayName.trim(),
            clientId: input.clientId.trim(),
          })
          .returning(),
      )
      return (await present([row!], redirectUri))[0]!
    },

    async update(
      id: number,
      input: Partial<{
        slug: string
        displayName: string
        issuer: string
        clientId: string
        clientSecret: string | null
        userNameClaim: string
        emailClaim: string
        allowSignUp: boolean
        enabled: boolean
      }>,
      redirectUri: (slug: string) => string,
    ) {
      if (input.issuer !== undefined) checkIssuer(input.issuer)
      const { clientSecret, ...rest } = input
      const patch: Partial<ProviderRow> = { ...rest }
      if (rest.issuer !== undefined) patch.issuer = rest.issuer.trim()
      if (rest.displayName !== undefined) patch.displayName = rest.displayName.trim()
      if (rest.clientId !== undefined) patch.clientId = rest.clientId.trim()
      // A blank secret keeps the stored one: the admin screen never has it to send back.
      if (clientSecret?.trim()) patch.clientSecret = clientSecret
      const [row] = Object.keys(patch).length
        ? await saving(() =>
            db.update(identityProviders).set(patch).where(eq(identityProviders.id, id)).returning(),
          )
        : await db.select().from(identityProviders).where(eq(identityProviders.id, id))
      if (!row) throw fail('Oidc_ProviderNotFound')
      client.forget()
      return (await present([row], redirectUri))[0]!
    },

    async remove(id: number): Promise<string> {
      const [row] = await db.delete(identityProviders).where(eq(identityProviders.id, id)).returning()
      if (!row) throw fail('Oidc_ProviderNotFound')
      client.forget()
      return row.displayName
    },

    // --- Everyone ------------------------------------------------------------------------------

    async enabledProviders() {
      if (!settings.isOn('oidc')) throw fail('Oidc_Off')
      return db
        .select({ slug: identityProviders.slug, displayName: identityProviders.displayName })
        .from(identityProviders)
        .where(eq(identityProviders.enabled, true))
        .orderBy(asc(identityProviders.displayName), asc(identityProviders.id))
    },

    /**
     * Begins a sign-in (or, with `linkUserId`, a link): fresh state, nonce and PKCE verifier,
     * kept under a random cookie token. Throws the reason when it cannot begin.
     */
    async start(
      slug: string,
      opts: { redirectUri: string; from?: string; linkUserId?: string },
    ): Promise<{ url: string; token: string } | { error: OidcErrorReason }> {
      if (!settings.isOn('oidc')) return { error: 'off' }
      const provider = await providerBySlug(slug)
      if (!provider?.enabled) return { error: 'unknown_provider' }
      const checks = client.newChecks()
      let url: URL
      try {
        url = await client.authorizationUrl(ref(provider), opts.redirectUri, checks)
      } catch (err) {
        audit.write({
          level: 'Warning',
          logger: 'oidc',
          message: `Identity provider ${provider.slug} could not be reached: ${String(err)}`,
          status: 'Failed',
        })
        return { error: 'unreachable' }
      }
      const flow: Flow = {
        ...checks,
        providerId: provider.id,
        redirectUri: opts.redirectUri,
        from: safeFrom(opts.from),
        linkUserId: opts.linkUserId ?? null,
      }
      const token = randomBytes(32).toString('base64url')
      await cache.set(flowKey(token), JSON.stringify(flow), FLOW_TTL_MS)
      return { url: url.toString(), token }
    },

    /** Finishes a sign-in or link from the provider's redirect back to us. */
    async callback(
      slug: string,
      input: { flowToken?: string; search: string; currentUserId: string | null; ip: string },
    ): Promise<CallbackOutcome> {
      const flow = await takeFlow(input.flowToken)
      const link = Boolean(flow?.linkUserId)
      const from = flow?.from ?? '/'
      const refuse = (error: OidcErrorReason): CallbackOutcome => ({ error, link, from })
      if (!settings.isOn('oidc')) return refuse('off')
      const provider = await providerBySlug(slug)
      if (!provider?.enabled) return refuse('unknown_provider')
      if (!flow || flow.providerId !== provider.id) return refuse('state')

      // The URL the provider sent the browser to: our redirect URI as registered, with its answer.
      const callbackUrl = new URL(flow.redirectUri)
      callbackUrl.search = input.search
      let result: Awaited<ReturnType<OidcClient['finish']>>
      try {
        result = await client.finish(ref(provider), callbackUrl, flow)
      } catch (err) {
        if (err instanceof OidcFailure) {
          audit.write({
            level: 'Warning',
            logger: 'oidc',
            message: `Sign-in through ${provider.slug} failed: ${err.message}`,
            status: 'Denied',
            ip: input.ip,
          })
          return refuse(err.reason)
        }
        throw err
      }

      const [identity] = await db
        .select()
        .from(userIdentities)
        .where(and(eq(userIdentities.providerId, provider.id), eq(userIdentities.subject, result.subject)))

      if (flow.linkUserId) {
        // Only the account that asked to link, still signed in in this browser, gets the link.
        if (input.currentUserId !== flow.linkUserId) return refuse('link_session')
        if (identity) return identity.userId === flow.linkUserId ? linked() : refuse('already_linked')
        try {
          await db
            .insert(userIdentities)
            .values({ providerId: provider.id, subject: result.subject, userId: flow.linkUserId })
        } catch (err) {
          if (isUniqueViolation(err, 'user_identities_user_provider_key')) return refuse('already_has')
          if (isUniqueViolation(err)) return refuse('already_linked')
          throw err
        }
        const user = await findUserById(db, flow.linkUserId)
        audit.write({
          logger: 'oidc',
          message: `${user?.userName} linked their account to ${provider.displayName}`,
          status: 'Success',
          userName: user?.userName,
          ip: input.ip,
        })
        return linked()
      }

      if (identity) {
        const user = await findUserById(db, identity.userId)
        if (!user) return refuse('state')
        if (user.role === 0) return refuse('banned')
        if (!user.emailConfirmed) return refuse('not_confirmed')
        audit.write({
          logger: 'oidc',
          message: `${user.userName} signed in through ${provider.displayName}`,
          status: 'Success',
          userName: user.userName,
          ip: input.ip,
        })
        return { redirect: from, session: await openSession(user.id, input.ip) }
      }

      // No account is linked to this identity: a new one, if this provider may make them.
      const policy = settings.get().accountPolicy
      if (!provider.allowSignUp || !policy.allowRegister) return refuse('signup_closed')
      const email = result.claims[provider.emailClaim]
      if (typeof email !== 'string' || !/^[^@\s]+@[^@\s]+$/.test(email.trim()) || email.length > 256)
        return refuse('email_missing')
      if (!emailVerified(result.claims.email_verified)) return refuse('email_unverified')
      const domains = policy.emailDomainList
        .split(',')
        .map((d) => d.trim())
        .filter(Boolean)
      if (domains.length && !domains.includes(email.slice(email.indexOf('@') + 1))) return refuse('domain')
      // An account that already has this address is not handed to whoever controls the provider
      // account: its owner signs in with their password and links from the profile.
      if (await findUserByEmail(db, email)) return refuse('email_taken')

      // A verified address is as good as our own confirmation mail; only an admin's approval
      // (the policy without either) still holds the new account back.
      const active = policy.activeOnRegister || policy.emailConfirmationRequired
      const now = new Date()
      let userId: string
      let userName = await freeUserName(baseUserName(result.claims[provider.userNameClaim], email))
      for (let attempt = 0; ; attempt++) {
        try {
          userId = await db.transaction(async (tx) => {
            const user = await insertUser(tx, {
              id: crypto.randomUUID(),
              userName,
              email: email.trim(),
              passwordHash: NO_PASSWORD,
              emailConfirmed: active,
              ip: input.ip,
              lastVisitedUtc: now,
              registerTimeUtc: now,
            })
            await tx
              .insert(userIdentities)
              .values({ providerId: provider.id, subject: result.subject, userId: user.id })
            return user.id
          })
          break
        } catch (err) {
          // Someone took the name (or the address) between the check and the insert.
          if (err instanceof AppError && err.key === 'Account_UserNameUsed' && attempt < 3) {
            userName = await freeUserName(
              `${[...userName].slice(0, 9).join('')}${randomBytes(3).toString('hex')}`,
            )
            continue
          }
          if (err instanceof AppError && err.key === 'Account_EmailUsed') return refuse('email_taken')
          if (isUniqueViolation(err)) return refuse('already_linked')
          throw err
        }
      }
      audit.write({
        logger: 'oidc',
        message: `Registered ${userName} through ${provider.displayName}`,
        status: 'Success',
        userName,
        ip: input.ip,
      })
      if (!active) return refuse('awaiting_activation')
      return { redirect: from, session: await openSession(userId, input.ip) }

      function linked(): CallbackOutcome {
        return { redirect: `/account/profile?oidcLinked=${encodeURIComponent(provider!.slug)}` }
      }
    },

    // --- The signed-in user --------------------------------------------------------------------

    async identities(userId: string) {
      if (!settings.isOn('oidc')) throw fail('Oidc_Off')
      const user = await findUserById(db, userId)
      if (!user) throw fail('Auth_LoginRequired')
      const rows = await db
        .select({
          slug: identityProviders.slug,
          displayName: identityProviders.displayName,
          enabled: identityProviders.enabled,
          linkedAt: userIdentities.linkedAt,
        })
        .from(identityProviders)
        .leftJoin(
          userIdentities,
          and(eq(userIdentities.providerId, identityProviders.id), eq(userIdentities.userId, userId)),
        )
        .orderBy(asc(identityProviders.displayName), asc(identityProviders.id))
      return {
        hasPassword: user.passwordHash !== NO_PASSWORD,
        providers: rows
          .filter((r) => r.enabled || r.linkedAt)
          .map((r) => ({ ...r, linkedAt: r.linkedAt ? r.linkedAt.getTime() : null })),
      }
    },

    /** Unlinks, unless it would leave the account with no way to sign in. */
    async unlink(userId: string, slug: string, ip: string) {
      if (!settings.isOn('oidc')) throw fail('Oidc_Off')
      const provider = await providerBySlug(slug)
      const user = await findUserById(db, userId)
      if (!provider || !user) throw fail('Oidc_NotLinked')
      const mine = await db
        .select({ providerId: userIdentities.providerId, enabled: identityProviders.enabled })
        .from(userIdentities)
        .innerJoin(identityProviders, eq(identityProviders.id, userIdentities.providerId))
        .where(eq(userIdentities.userId, userId))
      if (!mine.some((m) => m.providerId === provider.id)) throw fail('Oidc_NotLinked')
      const others = mine.filter((m) => m.providerId !== provider.id && m.enabled)
      if (user.passwordHash === NO_PASSWORD && others.length === 0) throw fail('Oidc_LastSignIn')
      await db
        .delete(userIdentities)
        .where(and(eq(userIdentities.userId, userId), eq(userIdentities.providerId, provider.id)))
      audit.write({
        logger: 'oidc',
        message: `${user.userName} unlinked their account from ${provider.displayName}`,
        status: 'Success',
        userName: user.userName,
        ip,
      })
    },
  }
}
export type OidcService = ReturnType<typeof createOidcService>
