import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { type Static, Type } from 'typebox'
import { NO_TIME } from '../../engine/scoreboard.ts'
import { MIN_COMPRESS_BYTES, negotiate, varyOnEncoding } from '../../http/compression.ts'
import { notModified } from '../../http/conditional.ts'
import { fail } from '../../http/errors.ts'
import { sendScalar } from '../../http/reply.ts'
import { errors, Id, IdParams } from '../../http/schema.ts'
import {
  AnswerResult,
  ChallengeDetailModel,
  FlagSubmitModel,
  GameDetailModel,
  ScoreboardModel,
} from './play.schemas.ts'
import type { BoardView } from './scoreboard.service.ts'

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
        params: IdParams,
        response: { 200: ScoreboardModel, ...errors(404) },
      },
    },
    async (request, reply) => {
      // The board knows whether its game is hidden: reads stay free of SQL. While the game is
      // frozen, players and anonymous readers get the board as it stood at the freeze.
      const { entry } = await scoreboard.view(request.params.id, request.user)
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
        params: IdParams,
        response: { 200: GameDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { game, participation } = await playContext.requirePlaying(request.user!, request.params.id)
      const view = await scoreboard.view(game.id, request.user)
      const { entry } = view
      // Frozen: the team still sees its own solves since the freeze as solved (as plain solves
      // at the frozen points: a blood would say nobody else solved it in the meantime).
      const own = view.frozen ? await ownSolvesSince(game.id, participation.teamId, view) : []
      const tag = own.length ? `-${own.map((s) => s.id).join('.')}` : ''
      if (
        notModified(request, reply, `${entry.etag}-${participation.id}${tag}`, entry.updatedAt, {
          private: true,
        })
      )
        return reply
      const item = entry.live.teamItem(participation.teamId)
      const rank = (item && {
        ...item,
        solvedChallenges: [...item.solvedChallenges, ...own],
        solvedCount: item.solvedCount + own.length,
      }) ?? {
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

  /** A team's solves since the freeze, from the true board, priced at the frozen board's points. */
  async function ownSolvesSince(gameId: number, teamId: number, view: BoardView) {
    const truth = (await scoreboard.get(gameId)).live.teamItem(teamId)
    if (!truth || view.frozenSince === null) return []
    const frozenScores = new Map(
      Object.values(view.entry.live.challengeGroups())
        .flat()
        .map((c) => [c.id, c.score]),
    )
    return truth.solvedChallenges
      .filter((s) => s.time >= view.frozenSince!)
      .map((s) => ({ ...s, type: 'Normal' as const, score: frozenScores.get(s.id) ?? s.score }))
  }

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
    async (request) => {
      const detail = await play.challenge(request.user!, request.params.id, request.params.challengeId)
      // Frozen: the points as they stood at the freeze (dynamic scores follow the solve count).
      const view = await scoreboard.view(request.params.id, request.user)
      if (view.frozen) {
        const info = Object.values(view.entry.live.challengeGroups())
          .flat()
          .find((c) => c.id === detail.id)
        if (info) detail.score = info.score
      }
      return detail
    },
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
