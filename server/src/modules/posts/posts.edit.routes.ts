import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { sendScalar } from '../../http/reply.ts'
import { Empty, errors, PostIdParams } from '../../http/schema.ts'
import { PostDetailModel, PostEditModel } from './posts.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Edit']

/** Edit — posts (api-contract §2.5 "Posts"). */
export const editPostRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { posts } = app.deps.services

  app.post(
    '/posts',
    {
      config: admin,
      schema: {
        summary: 'Publish a post; returns its id',
        tags,
        body: PostEditModel,
        response: { 200: Type.String(), ...errors(401, 403) },
      },
    },
    async (request, reply) => sendScalar(reply, await posts.create(request.user!.id, request.body)),
  )

  app.put(
    '/posts/:id',
    {
      config: admin,
      schema: {
        summary: 'Change a post',
        tags,
        params: PostIdParams,
        body: PostEditModel,
        response: { 200: PostDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => posts.update(request.user!.id, request.params.id, request.body),
  )

  app.delete(
    '/posts/:id',
    {
      config: admin,
      schema: {
        summary: 'Delete a post',
        tags,
        params: PostIdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await posts.remove(request.params.id)
      return reply.send()
    },
  )
}
