import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { NoticeType } from '../../http/enums.ts'
import { Empty, errors, Id, IdParams, RequiredString } from '../../http/schema.ts'
import { requireGame } from '../contest/games.queries.ts'

const admin = { auth: 'admin' } as const
const tags = ['Edit']

export const GameNotice = Type.Object({
  id: Type.Integer(),
  time: Type.Integer(),
  type: NoticeType,
  /** Normal: [content]; bloods: [team, challenge]; NewHint / NewChallenge: [challenge]. */
  values: Type.Array(Type.String()),
})
const GameNoticeModel = Type.Object({ content: RequiredString({ maxLength: 8192 }) })
const NoticeParams = Type.Object({ id: Id, noticeId: Id })

/** Edit — game notices (api-contract §2.5 "Notices"). */
export const editNoticeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { notices } = app.deps.services

  app.get(
    '/games/:id/notices',
    {
      config: admin,
      schema: {
        summary: 'The organisers’ notices of a game',
        tags,
        params: IdParams,
        response: { 200: Type.Array(GameNotice), ...errors(401, 403, 404) },
      },
    },
    async (request) => notices.listNormal(request.params.id),
  )

  app.post(
    '/games/:id/notices',
    {
      config: admin,
      schema: {
        summary: 'Post a notice',
        tags,
        params: IdParams,
        body: GameNoticeModel,
        response: { 200: GameNotice, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      await requireGame(app.deps.db, request.params.id)
      return notices.post(request.params.id, 'Normal', [request.body.content])
    },
  )

  app.put(
    '/games/:id/notices/:noticeId',
    {
      config: admin,
      schema: {
        summary: 'Change a notice',
        tags,
        params: NoticeParams,
        body: GameNoticeModel,
        response: { 200: GameNotice, ...errors(401, 403, 404) },
      },
    },
    async (request) => notices.edit(request.params.id, request.params.noticeId, request.body.content),
  )

  app.delete(
    '/games/:id/notices/:noticeId',
    {
      config: admin,
      schema: {
        summary: 'Delete a notice',
        tags,
        params: NoticeParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await notices.remove(request.params.id, request.params.noticeId)
      return reply.send()
    },
  )
}
