import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors, Nullable, PageQuery, Timestamp } from '../../http/schema.ts'

const LogMessageModel = Type.Object({
  time: Timestamp(),
  /** The user's name, `Anonymous` for none. */
  name: Nullable(Type.String()),
  level: Nullable(Type.String()),
  ip: Nullable(Type.String()),
  msg: Nullable(Type.String()),
  /** A `TaskStatus` name. */
  status: Nullable(Type.String()),
})

const LogQuery = Type.Object({
  level: Type.Union(
    ['All', 'Information', 'Warning', 'Error', 'Fatal'].map((l) => Type.Literal(l)),
    { default: 'All' },
  ),
  ...PageQuery(1000, 50).properties,
})

/** Admin — the platform log (api-contract §2.2, `GET /api/admin/logs`). */
export const logRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { audit } = app.deps.services
  app.get(
    '/logs',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Log records, newest first',
        tags: ['Admin'],
        querystring: LogQuery,
        response: { 200: Type.Array(LogMessageModel), ...errors(401, 403) },
      },
    },
    async (request) => audit.page(request.query.level, request.query.count, request.query.skip),
  )
}
