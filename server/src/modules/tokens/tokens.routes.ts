import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Empty, errors } from '../../http/schema.ts'
import { ApiToken, ApiTokenCreateModel, ApiTokenResponse } from './tokens.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['ApiToken']
const IdParams = Type.Object({ id: Type.String({ format: 'uuid' }) })

/** API tokens — `/api/tokens` (api-contract §2.3). */
export const tokenRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { apiTokens, audit } = app.deps.services

  app.post(
    '/',
    {
      config: admin,
      schema: {
        summary: 'Create a token (the token string is shown only in this answer)',
        tags,
        body: ApiTokenCreateModel,
        response: { 200: ApiTokenResponse, ...errors(401, 403) },
      },
    },
    async (request) => {
      const created = await apiTokens.create(request.user!, request.body)
      audit.action(
        'tokens',
        request.user!,
        request.ip,
        `${request.user!.userName} created the API token "${created.info.name}"`,
      )
      return created
    },
  )

  app.get(
    '/',
    {
      config: admin,
      schema: {
        summary: 'Every token, oldest first',
        tags,
        response: { 200: Type.Array(ApiToken), ...errors(401, 403) },
      },
    },
    async () => apiTokens.list(),
  )

  app.post(
    '/:id/restore',
    {
      config: admin,
      schema: {
        summary: 'Undo a revocation',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const name = await apiTokens.setRevoked(request.params.id, false)
      audit.action(
        'tokens',
        request.user!,
        request.ip,
        `${request.user!.userName} restored the API token "${name}"`,
      )
      return reply.send()
    },
  )

  app.delete(
    '/:id',
    {
      config: admin,
      schema: {
        summary: 'Revoke a token, or delete it with delete=true',
        tags,
        params: IdParams,
        querystring: Type.Object({ delete: Type.Boolean({ default: false }) }),
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const deleting = request.query.delete
      const name = deleting ? await apiTokens.remove(id) : await apiTokens.setRevoked(id, true)
      const what = deleting ? 'deleted' : 'revoked'
      audit.action(
        'tokens',
        request.user!,
        request.ip,
        `${request.user!.userName} ${what} the API token "${name}"`,
      )
      return reply.send()
    },
  )
}
