import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { sendScalar } from '../../http/reply.ts'
import { ArrayResponse, Empty, errors, IdParams, PageQuery } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { MAX_IMAGE_BYTES } from '../assets/images.ts'
import { GameEditModel, GameInfoModel } from './games.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Edit']

/** Edit — games (api-contract §2.5). */
export const editGameRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { editGames } = app.deps.services

  app.get(
    '/games',
    {
      config: admin,
      schema: {
        summary: 'All games, newest first',
        tags,
        querystring: PageQuery(100),
        response: { 200: ArrayResponse(GameInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => editGames.list(request.query),
  )

  app.post(
    '/games',
    {
      config: admin,
      schema: {
        summary: 'Create a game',
        tags,
        body: GameEditModel,
        response: { 200: GameInfoModel, ...errors(401, 403) },
      },
    },
    async (request) => editGames.create(request.body),
  )

  app.get(
    '/games/:id',
    {
      config: admin,
      schema: {
        summary: 'One game',
        tags,
        params: IdParams,
        response: { 200: GameInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => editGames.get(request.params.id),
  )

  app.put(
    '/games/:id',
    {
      config: admin,
      schema: {
        summary: 'Change a game',
        tags,
        params: IdParams,
        body: GameEditModel,
        response: { 200: GameInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => editGames.update(request.params.id, request.body),
  )

  app.delete(
    '/games/:id',
    {
      config: admin,
      schema: {
        summary: 'Delete a game and all it holds',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editGames.remove(request.params.id)
      return reply.send()
    },
  )

  app.put(
    '/games/:id/poster',
    {
      config: admin,
      schema: {
        summary: 'Upload the poster (multipart field "file")',
        tags,
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: {
          200: Type.String({ description: '/assets/<hash>/poster.webp' }),
          ...errors(401, 403, 404),
        },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, MAX_IMAGE_BYTES)
      return sendScalar(reply, await editGames.setPoster(request.params.id, upload.bytes))
    },
  )

  app.delete(
    '/games/:id/writeups',
    {
      config: admin,
      schema: {
        summary: 'Delete every writeup of a game',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editGames.deleteWriteups(request.params.id)
      return reply.send()
    },
  )

  app.get(
    '/games/:id/hashsalt',
    {
      config: admin,
      schema: {
        summary: 'The salt of [TEAM_HASH] flags, to compute team flags elsewhere',
        tags,
        params: IdParams,
        response: { 200: Type.String(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => sendScalar(reply, await editGames.hashSalt(request.params.id)),
  )
}
