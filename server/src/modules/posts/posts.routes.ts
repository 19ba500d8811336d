import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { hashTag, notModified } from '../../http/conditional.ts'
import { errors, PostIdParams } from '../../http/schema.ts'
import { PostDetailModel, PostInfoModel } from './posts.schemas.ts'

const newest = (items: { time: number }[]) => new Date(items.reduce((m, p) => Math.max(m, p.time), 0))

/** Posts — the public announcements (api-contract §2.7). */
export const postsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { posts } = app.deps.services

  app.get(
    '/posts/latest',
    {
      schema: {
        summary: 'The 20 newest posts, pinned first',
        tags: ['Info'],
        response: { 200: Type.Array(PostInfoModel), ...errors() },
      },
    },
    async (request, reply) => {
      const list = (await posts.list()).slice(0, 20)
      if (notModified(request, reply, `latest-${hashTag(list)}`, newest(list))) return reply
      return list
    },
  )

  app.get(
    '/posts',
    {
      config: { rateLimit: 'Query' },
      schema: {
        summary: 'All posts, pinned first',
        tags: ['Info'],
        response: { 200: Type.Array(PostInfoModel), ...errors(429) },
      },
    },
    async (request, reply) => {
      const list = await posts.list()
      if (notModified(request, reply, `all-${hashTag(list)}`, newest(list))) return reply
      return list
    },
  )

  app.get(
    '/posts/:id',
    {
      schema: {
        summary: 'One post with its content',
        tags: ['Info'],
        params: PostIdParams,
        response: { 200: PostDetailModel, ...errors(404) },
      },
    },
    async (request, reply) => {
      const post = await posts.get(request.params.id)
      if (notModified(request, reply, `${post.id}-${hashTag(post)}`, new Date(post.time))) return reply
      return post
    },
  )
}
