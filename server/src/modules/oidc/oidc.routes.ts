import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { cookieOptions, setSessionCookie } from '../../http/auth.ts'
import { fail } from '../../http/errors.ts'
import { Empty, errors, IdParams } from '../../http/schema.ts'
import {
  IdentityProviderCreateModel,
  IdentityProviderModel,
  IdentityProviderUpdateModel,
  LinkStartModel,
  OwnIdentitiesModel,
  PublicProviderModel,
} from './oidc.schemas.ts'
import { FLOW_COOKIE, FLOW_TTL_MS, type OidcErrorReason, safeFrom } from './oidc.service.ts'

const tags = ['Extensions']
const SlugParams = Type.Object({ slug: Type.String({ minLength: 1, maxLength: 64 }) })
/** Only this prefix sees the flow cookie: it is no business of any other route. */
const FLOW_PATH = '/api/ext/oidc'

/** Where Pennant's callback for a provider lives: the redirect URI to register at the provider. */
export function redirectUriFor(base: string, slug: string): string {
  return `${base}/api/ext/oidc/${encodeURIComponent(slug)}/callback`
}

/**
 * Sign-in with an OpenID Connect provider (our addition, `oidc` switch): the public list for the
 * login page, the browser's round trip (start → provider → callback), and linking from the profile.
 */
export const oidcRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { oidc, account } = app.deps.services
  const { publicUrl } = app.deps.config
  const base = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`

  const flowCookie = (request: FastifyRequest) => ({
    ...cookieOptions(request, true),
    path: FLOW_PATH,
    maxAge: Math.floor(FLOW_TTL_MS / 1000),
  })

  /** Failures land on a page that says why (in the reader's language), never on a JSON body. */
  function land(reply: FastifyReply, error: OidcErrorReason, opts: { link: boolean; from?: string }) {
    const query = new URLSearchParams({ oidcError: error })
    if (!opts.link && opts.from && opts.from !== '/') query.set('from', opts.from)
    return reply.redirect(`${opts.link ? '/account/profile' : '/account/login'}?${query}`, 302)
  }

  app.get(
    '/oidc/providers',
    {
      schema: {
        summary: 'The identity providers the login page offers',
        tags,
        response: { 200: Type.Array(PublicProviderModel), ...errors(404) },
      },
    },
    async () => oidc.enabledProviders(),
  )

  app.get(
    '/oidc/:slug/start',
    {
      config: { rateLimit: 'Query' },
      schema: {
        summary: 'Begin signing in: redirects to the provider (failures redirect to the login page)',
        tags,
        params: SlugParams,
        querystring: Type.Object({ from: Type.Optional(Type.String({ maxLength: 1024 })) }),
        response: { 302: Empty },
      },
    },
    async (request, reply) => {
      const { slug } = request.params
      const from = request.query.from
      const started = await oidc.start(slug, { redirectUri: redirectUriFor(base(request), slug), from })
      if ('error' in started) return land(reply, started.error, { link: false, from: safeFrom(from) })
      reply.setCookie(FLOW_COOKIE, started.token, flowCookie(request))
      return reply.redirect(started.url, 302)
    },
  )

  app.post(
    '/oidc/:slug/link',
    {
      config: { auth: 'user', rateLimit: 'Query' },
      schema: {
        summary: 'Begin linking the caller’s account to a provider; answers the URL to send the browser to',
        tags,
        params: SlugParams,
        response: { 200: LinkStartModel, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { slug } = request.params
      const started = await oidc.start(slug, {
        redirectUri: redirectUriFor(base(request), slug),
        linkUserId: request.user!.id,
        from: '/account/profile',
      })
      if ('error' in started) {
        const key =
          started.error === 'off'
            ? 'Oidc_Off'
            : started.error === 'unreachable'
              ? 'Oidc_Unreachable'
              : 'Oidc_ProviderNotFound'
        throw fail(key)
      }
      reply.setCookie(FLOW_COOKIE, started.token, flowCookie(request))
      return { url: started.url }
    },
  )

  app.get(
    '/oidc/:slug/callback',
    {
      config: { rateLimit: 'Query' },
      schema: {
        summary: 'The provider sends the browser back here; signs in, signs up or links, then redirects',
        tags,
        params: SlugParams,
        response: { 302: Empty },
      },
    },
    async (request, reply) => {
      const token = request.cookies[FLOW_COOKIE]
      reply.clearCookie(FLOW_COOKIE, { ...cookieOptions(request, true), path: FLOW_PATH })
      const at = request.url.indexOf('?')
      const outcome = await oidc.callback(request.params.slug, {
        flowToken: token,
        search: at < 0 ? '' : request.url.slice(at),
        currentUserId: request.user?.id ?? null,
        ip: request.ip,
      })
      if (outcome.error) return land(reply, outcome.error, outcome)
      if (outcome.session) {
        // Signing in replaces whatever session the browser had, as the password login does.
        if (request.user) await account.logout(request.user)
        setSessionCookie(request, reply, outcome.session.token, outcome.session.expiresAt)
      }
      return reply.redirect(outcome.redirect, 302)
    },
  )

  app.get(
    '/oidc/identities',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The caller’s linked identity providers (and the ones they could link)',
        tags,
        response: { 200: OwnIdentitiesModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => oidc.identities(request.user!.id),
  )

  app.delete(
    '/oidc/identities/:slug',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Unlink a provider, unless it is the account’s only way to sign in',
        tags,
        params: SlugParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await oidc.unlink(request.user!.id, request.params.slug, request.ip)
      return reply.send()
    },
  )
}

/** Admins configure the providers here, whether or not the switch is on yet. */
export const oidcAdminRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { oidc, audit } = app.deps.services
  const { publicUrl } = app.deps.config
  const admin = { auth: 'admin' } as const
  const redirectUri = (request: FastifyRequest) => (slug: string) =>
    redirectUriFor(publicUrl ?? `${request.protocol}://${request.host}`, slug)

  app.get(
    '/admin/identity-providers',
    {
      config: admin,
      schema: {
        summary: 'Every identity provider (secrets shown only by their last characters)',
        tags,
        response: { 200: Type.Array(IdentityProviderModel), ...errors(401, 403) },
      },
    },
    async (request) => oidc.list(redirectUri(request)),
  )

  app.post(
    '/admin/identity-providers',
    {
      config: admin,
      schema: {
        summary: 'Add an identity provider',
        tags,
        body: IdentityProviderCreateModel,
        response: { 200: IdentityProviderModel, ...errors(401, 403) },
      },
    },
    async (request) => {
      const created = await oidc.create(request.body, redirectUri(request))
      audit.action(
        'oidc',
        request.user!,
        request.ip,
        `${request.user!.userName} added the identity provider "${created.displayName}"`,
      )
      return created
    },
  )

  app.put(
    '/admin/identity-providers/:id',
    {
      config: admin,
      schema: {
        summary: 'Edit an identity provider (fields left out, and a blank secret, keep their value)',
        tags,
        params: IdParams,
        body: IdentityProviderUpdateModel,
        response: { 200: IdentityProviderModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      const updated = await oidc.update(request.params.id, request.body, redirectUri(request))
      audit.action(
        'oidc',
        request.user!,
        request.ip,
        `${request.user!.userName} edited the identity provider "${updated.displayName}"`,
      )
      return updated
    },
  )

  app.delete(
    '/admin/identity-providers/:id',
    {
      config: admin,
      schema: {
        summary: 'Delete an identity provider and the links to it',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const name = await oidc.remove(request.params.id)
      audit.action(
        'oidc',
        request.user!,
        request.ip,
        `${request.user!.userName} deleted the identity provider "${name}"`,
      )
      return reply.send()
    },
  )
}
