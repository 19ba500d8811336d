import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schema.ts'
import { Extensions } from '../settings/settings.schemas.ts'

/** The switches to change; no defaults here, so one left out keeps its value. */
const ExtensionsPatch = Type.Object(
  Object.fromEntries(Object.keys(Extensions.properties).map((k) => [k, Type.Optional(Type.Boolean())])),
  { additionalProperties: false },
)

/**
 * Pennant's own additions switch on here, one flag each (`/api/ext/features`). Anyone may read
 * which are on (the login page offers identity providers only when `oidc` is); admins change them.
 */
export const featureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, audit } = app.deps.services

  app.get(
    '/features',
    {
      schema: {
        summary: 'Which of our additions are switched on',
        tags: ['Extensions'],
        response: { 200: Extensions },
      },
    },
    async () => settings.get().extensions,
  )

  app.put(
    '/features',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Switch our additions on or off (switches left out keep their value)',
        tags: ['Extensions'],
        body: ExtensionsPatch,
        response: { 200: Extensions, ...errors(400, 401, 403) },
      },
    },
    async (request) => {
      const next = { ...settings.get().extensions, ...request.body }
      await settings.save('extensions', next)
      const on = Object.entries(next)
        .filter(([, v]) => v)
        .map(([k]) => k)
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} set the additions switched on to: ${on.join(', ') || 'none'}`,
      )
      return settings.get().extensions
    },
  )
}
