import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { Empty, errors, IdParams } from '../../http/schema.ts'
import { ParticipationEditModel, ParticipationInfoModel } from '../game/participations.schemas.ts'

/** Participation review: `GET /api/game/{id}/participations`, `PUT /api/admin/participation/{id}`. */
export const participationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { participations } = app.deps.services

  app.get(
    '/game/:id/participations',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every team taking part in a game',
        tags: ['Game'],
        params: IdParams,
        response: { 200: Type.Array(ParticipationInfoModel), ...errors(401, 403, 404) },
      },
    },
    async (request) => participations.list(request.params.id),
  )

  app.put(
    '/admin/participation/:id',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Review a participation: status and division',
        tags: ['Admin'],
        params: IdParams,
        body: ParticipationEditModel,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await participations.review(request.params.id, request.body)
      return reply.send()
    },
  )
}
