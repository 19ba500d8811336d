import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { Enum, errors, IdParams, Nullable, PageQuery } from '../../http/schema.ts'
import { ParticipationStatus } from './participations.schemas.ts'
import { AnswerResult } from './play.schemas.ts'

const monitor = { auth: 'monitor' } as const
const tags = ['Game']

const EventType = Enum('EventType', {
  Normal: 0,
  ContainerStart: 1,
  ContainerDestroy: 2,
  FlagSubmit: 3,
  CheatDetected: 4,
})
export const GameEvent = Type.Object({
  type: EventType,
  values: Type.Array(Type.String()),
  time: Type.Integer(),
  user: Type.String(),
  team: Type.String(),
})
export const Submission = Type.Object({
  answer: Type.String(),
  status: AnswerResult,
  time: Type.Integer(),
  user: Type.String(),
  team: Type.String(),
  challenge: Type.String(),
})
const ParticipationModel = Type.Object({
  id: Type.Integer(),
  team: Type.Object({ id: Type.Integer(), name: Type.String(), avatar: Nullable(Type.String()) }),
  status: ParticipationStatus,
  division: Nullable(Type.String()),
})
const CheatInfoModel = Type.Object({
  ownedTeam: ParticipationModel,
  submitTeam: ParticipationModel,
  submission: Submission,
})

/** Monitoring a game (Monitor and Admin): events, submissions, cheating. */
export const monitorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { monitor: service } = app.deps.services

  app.get(
    '/game/:id/events',
    {
      config: monitor,
      schema: {
        summary: 'The game’s event log, newest first',
        tags,
        params: IdParams,
        querystring: Type.Object({
          hideContainer: Type.Boolean({ default: false }),
          ...PageQuery(100, 100).properties,
        }),
        response: { 200: Type.Array(GameEvent), ...errors(401, 403, 404) },
      },
    },
    async (request) => service.events(request.user!, request.params.id, request.query),
  )

  app.get(
    '/game/:id/submissions',
    {
      config: monitor,
      schema: {
        summary: 'Every submission, newest first (count 0: all)',
        tags,
        params: IdParams,
        querystring: Type.Object({
          type: Type.Optional(AnswerResult),
          ...PageQuery(100, 100).properties,
        }),
        response: { 200: Type.Array(Submission), ...errors(401, 403, 404) },
      },
    },
    async (request) => service.submissions(request.user!, request.params.id, request.query),
  )

  app.get(
    '/game/:id/cheatinfo',
    {
      config: monitor,
      schema: {
        summary: 'Flags submitted by a team other than their owner',
        tags,
        params: IdParams,
        response: { 200: Type.Array(CheatInfoModel), ...errors(401, 403, 404) },
      },
    },
    async (request) => service.cheats(request.user!, request.params.id),
  )

  const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'
  const sheets = [
    ['/game/:id/scoreboardsheet', 'The scoreboard with contacts, as a spreadsheet', 'scoreboardSheet'],
    ['/game/:id/submissionsheet', 'Every submission, as a spreadsheet', 'submissionSheet'],
  ] as const
  for (const [url, summary, method] of sheets) {
    app.get(
      url,
      {
        config: monitor,
        schema: { summary, tags, params: IdParams, response: { ...errors(401, 403, 404) } },
      },
      async (request, reply) => {
        const { fileName, bytes } = await service[method](request.user!, request.params.id)
        reply.header('Content-Type', XLSX)
        reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
        return (reply as FastifyReply).send(bytes)
      },
    )
  }
}
