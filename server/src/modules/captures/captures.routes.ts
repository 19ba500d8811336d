import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { ChallengeCategory, ChallengeType } from '../../http/enums.ts'
import { Empty, errors, Id, IdParams, Nullable } from '../../http/schema.ts'

const monitor = { auth: 'monitor' } as const
const tags = ['Game']
const Team = Type.Object({ challengeId: Id, partId: Id })
const File = Type.Object({ challengeId: Id, partId: Id, filename: Type.String({ maxLength: 255 }) })

export const ChallengeTrafficModel = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  category: ChallengeCategory,
  type: ChallengeType,
  isEnabled: Type.Boolean(),
  count: Type.Integer({ description: 'team folders with captures' }),
})
export const TeamTrafficModel = Type.Object({
  id: Type.Integer({ description: 'participation id' }),
  teamId: Type.Integer(),
  name: Nullable(Type.String()),
  division: Nullable(Type.String()),
  avatar: Nullable(Type.String()),
  count: Type.Integer({ description: 'capture files' }),
})
export const FileRecord = Type.Object({
  fileName: Type.String(),
  size: Type.Integer(),
  updateTime: Type.Number(),
})

const attachment = (reply: FastifyReply, type: string, fileName: string) =>
  reply
    .header('Content-Type', type)
    .header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)

/** Traffic captures of proxied connections, for monitors (api-contract §2.6). */
export const captureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { captures } = app.deps.services

  app.get(
    '/game/games/:id/captures',
    {
      config: monitor,
      schema: {
        summary: 'The game’s challenges that capture traffic',
        tags,
        params: IdParams,
        response: { 200: Type.Array(ChallengeTrafficModel), ...errors(401, 403, 404) },
      },
    },
    async (request) => captures.challenges(request.user!, request.params.id),
  )

  app.get(
    '/game/captures/:challengeId',
    {
      config: monitor,
      schema: {
        summary: 'Teams with captured traffic of a challenge',
        tags,
        params: Type.Object({ challengeId: Id }),
        response: { 200: Type.Array(TeamTrafficModel), ...errors(401, 403, 404) },
      },
    },
    async (request) => captures.teams(request.user!, request.params.challengeId),
  )

  app.get(
    '/game/captures/:challengeId/:partId',
    {
      config: monitor,
      schema: {
        summary: 'A team’s capture files of a challenge',
        tags,
        params: Team,
        response: { 200: Type.Array(FileRecord), ...errors(401, 403, 404) },
      },
    },
    async (request) => captures.files(request.user!, request.params.challengeId, request.params.partId),
  )

  app.get(
    '/game/captures/:challengeId/:partId/all',
    {
      config: monitor,
      schema: {
        summary: 'All of a team’s capture files, as a tar.gz',
        tags,
        params: Team,
        response: errors(401, 403, 404),
      },
    },
    async (request, reply) => {
      const { challengeId, partId } = request.params
      const { fileName, stream } = await captures.archive(request.user!, challengeId, partId)
      return attachment(reply as FastifyReply, 'application/gzip', fileName).send(stream)
    },
  )

  app.delete(
    '/game/captures/:challengeId/:partId/all',
    {
      config: monitor,
      schema: {
        summary: 'Delete all of a team’s capture files',
        tags,
        params: Team,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await captures.removeAll(request.user!, request.params.challengeId, request.params.partId)
      return reply.send()
    },
  )

  app.get(
    '/game/captures/:challengeId/:partId/:filename',
    {
      config: monitor,
      schema: { summary: 'One capture file (pcap)', tags, params: File, response: errors(401, 403, 404) },
    },
    async (request, reply) => {
      const { challengeId, partId, filename } = request.params
      const stream = await captures.open(request.user!, challengeId, partId, filename)
      return attachment(reply as FastifyReply, 'application/octet-stream', filename).send(stream)
    },
  )

  app.delete(
    '/game/captures/:challengeId/:partId/:filename',
    {
      config: monitor,
      schema: {
        summary: 'Delete one capture file',
        tags,
        params: File,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { challengeId, partId, filename } = request.params
      await captures.remove(request.user!, challengeId, partId, filename)
      return reply.send()
    },
  )
}
