import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { type Static, Type } from 'typebox'
import { NO_TIME } from '../../engine/scoreboard.ts'
import { MIN_COMPRESS_BYTES, negotiate, varyOnEncoding } from '../../http/compression.ts'
import { notModified } from '../../http/conditional.ts'
import { fail } from '../../http/errors.ts'
import { sendScalar } from '../../http/reply.ts'
import { errors } from '../../http/schema.ts'
import {
  AnswerResult,
  ChallengeDetailModel,
  FlagSubmitModel,
  GameDetailModel,
  ScoreboardModel,
} from './play.schemas.ts'

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })
const tags = ['Game']

/** Game — the team's view, challenges, flags and the scoreboard (api-contract §2.6). */
export const playRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { play, scoreboard, playContext } = app.deps.services

  app.get(
    '/game/:id/scoreboard',
    {
      schema: {
        summary: 'The scoreboard',
        tags,
        params: Type.Object({ id: Id }),
        response: { 200: ScoreboardModel, ...errors(404) },
      },
    },
    async (request, reply) => {
      // The board knows whether its game is hidden: reads stay free of SQL.
      const entry = await scoreboard.get(request.params.id)
      if (entry.hidden && (request.user?.role ?? 0) < 3) throw fail('Game_NotFound')
      // One weak ETag for the plain and the compressed bodies (the same board, byte for byte
      // once decoded, which is what a weak tag promises); Vary keeps them apart in caches.
      varyOnEncoding(reply)
      if (notModified(request, reply, entry.etag, entry.updatedAt)) return reply
      reply.type('application/json; charset=utf-8')
      // Pre-serialised (and compressed) once per change: sent as bytes, the serializer and
      // the per-response compression are not involved.
      const coding =
        entry.bytes.length >= MIN_COMPRESS_BYTES ? negotiate(request.headers['accept-encoding']) : null
      if (coding)
        return (reply as FastifyReply).header('Content-Encoding', coding).send(await entry.encoded(coding))
      // The buffer stays out of reuse until the response is done.
      reply.raw.once('close', entry.retain())
      return (reply as FastifyReply).send(entry.bytes)
    },
  )

  app.get(
    '/game/:id/details',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The team’s challenges, solves and rank',
        tags,
        params: Type.Object({ id: Id }),
        response: { 200: GameDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { game, participation } = await playContext.requirePlaying(request.user!, request.params.id)
      const entry = await scoreboard.get(game.id)
      if (
        notModified(request, reply, `${entry.etag}-${participation.id}`, entry.updatedAt, { private: true })
      )
        return reply
      const rank = entry.live.teamItem(participation.teamId) ?? {
        id: participation.teamId,
        name: '',
        bio: '',
        division: null,
        avatar: null,
        score: 0,
        rank: 0,
        divisionRank: null,
        lastSubmissionTime: NO_TIME,
        solvedChallenges: [],
        solvedCount: 0,
      }
      return {
        // The engine names categories as plain strings; they are the enum's names.
        challenges: entry.live.challengeGroups() as Static<typeof GameDetailModel>['challenges'],
        challengeCount: entry.live.challengeCount,
        rank: rank as Static<typeof GameDetailModel>['rank'],
        teamToken: participation.token,
        writeupRequired: game.writeupRequired,
        writeupDeadline: game.writeupDeadline.getTime(),
      }
    },
  )

  const ChallengeParams = Type.Object({ id: Id, challengeId: Id })

  app.get(
    '/game/:id/challenges/:challengeId',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'A challenge as the team sees it',
        tags,
        params: ChallengeParams,
        response: { 200: ChallengeDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => play.challenge(request.user!, request.params.id, request.params.challengeId),
  )

  app.post(
    '/game/:id/challenges/:challengeId',
    {
      config: { auth: 'user', rateLimit: 'Submit' },
      schema: {
        summary: 'Submit a flag; returns the submission id to poll',
        tags,
        params: ChallengeParams,
        body: FlagSubmitModel,
        response: { 200: Type.Integer(), ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) =>
      sendScalar(
        reply,
        await play.submit(request.user!, request.params.id, request.params.challengeId, request.body.flag),
      ),
  )

  app.get(
    '/game/:id/challenges/:challengeId/status/:submitId',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'How your submission was judged (FlagSubmitted while pending)',
        tags,
        params: Type.Object({ id: Id, challengeId: Id, submitId: Id }),
        response: { 200: AnswerResult, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendScalar(
        reply,
        await play.status(
          request.user!,
          request.params.id,
          request.params.challengeId,
          request.params.submitId,
        ),
      ),
  )
}
