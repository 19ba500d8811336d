import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { hashTag, notModified } from '../../http/conditional.ts'
import { fail } from '../../http/errors.ts'
import { ArrayResponse, Empty, errors, IdParams, PageQuery } from '../../http/schema.ts'
import { requireVisibleGame } from '../contest/context.ts'
import { phaseOf } from '../contest/games.queries.ts'
import { GameNotice } from '../edit/notices.routes.ts'
import { BasicGameInfoModel, DetailedGameInfoModel, GameJoinModel } from './games.schemas.ts'

const tags = ['Game']

/** Game — browsing, joining, leaving, notices (api-contract §2.6). */
export const gameRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { games, notices } = app.deps.services

  app.get(
    '/game',
    {
      config: { rateLimit: 'Query' },
      schema: {
        summary: 'Public games, latest start first',
        tags,
        querystring: PageQuery(50, 10),
        response: { 200: ArrayResponse(BasicGameInfoModel), ...errors(429) },
      },
    },
    async (request, reply) => {
      reply.header('Cache-Control', 'public, max-age=60')
      return games.list(request.query)
    },
  )

  app.get(
    '/game/recent',
    {
      schema: {
        summary: 'Up to 50 public games, nearest in time first',
        tags,
        querystring: Type.Object({ limit: Type.Integer({ minimum: 0, maximum: 50, default: 0 }) }),
        response: { 200: Type.Array(BasicGameInfoModel), ...errors() },
      },
    },
    async (request, reply) => {
      const list = await games.recent(request.query.limit)
      if (notModified(request, reply, `${hashTag(list)}-${request.query.limit}`, new Date())) return reply
      return list
    },
  )

  app.get(
    '/game/:id',
    {
      schema: {
        summary: 'A game with the caller’s registration',
        tags,
        params: IdParams,
        response: { 200: DetailedGameInfoModel, ...errors(404) },
      },
    },
    async (request) => games.detail(request.params.id, request.user),
  )

  app.post(
    '/game/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Join a game for one of your teams',
        tags,
        params: IdParams,
        body: GameJoinModel,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await games.join(request.user!, request.params.id, request.body)
      return reply.send()
    },
  )

  app.delete(
    '/game/:id',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Leave a game before being accepted',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await games.leave(request.user!, request.params.id)
      return reply.send()
    },
  )

  app.get(
    '/game/:id/notices',
    {
      schema: {
        summary: 'Notices of a game: organisers’ first, then the platform’s',
        tags,
        params: IdParams,
        querystring: Type.Object({
          count: Type.Integer({ minimum: 0, maximum: 100, default: 100 }),
          skip: Type.Integer({ minimum: 0, maximum: 300, default: 0 }),
        }),
        response: { 200: Type.Array(GameNotice), ...errors(404) },
      },
    },
    async (request, reply) => {
      const game = await requireVisibleGame(app.deps.db, request.params.id, request.user)
      if (phaseOf(game, app.deps.clock.now()) === 'upcoming') throw fail('Game_NotStarted')
      const { count, skip } = request.query
      // A frozen game hides the bloods since the freeze from players (admins and monitors see all).
      const { frozenSince, frozen } = await app.deps.services.scoreboard.view(game.id, request.user)
      const list = (await notices.listForPlayers(game.id, frozen ? frozenSince : null)).slice(
        skip,
        skip + count,
      )
      const newest = new Date(list.reduce((m, n) => Math.max(m, n.time), game.startTimeUtc.getTime()))
      if (notModified(request, reply, `${game.id}-${hashTag(list)}-${skip}-${count}`, newest)) return reply
      return list
    },
  )
}
