import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { TaskStatus } from '../../http/enums.ts'
import { sendScalar } from '../../http/reply.ts'
import { Empty, errors, IdParams } from '../../http/schema.ts'
import {
  AttachmentCreateModel,
  ChallengeCreateModel,
  ChallengeEditDetailModel,
  ChallengeInfoModel,
  ChallengeParams,
  ChallengeUpdateModel,
  FlagCreateModel,
  FlagParams,
} from './challenges.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Edit']

/** Edit — challenges, flags and attachments (api-contract §2.5). */
export const editChallengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { editChallenges } = app.deps.services

  app.get(
    '/games/:id/challenges',
    {
      config: admin,
      schema: {
        summary: 'The challenges of a game',
        tags,
        params: IdParams,
        response: { 200: Type.Array(ChallengeInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => editChallenges.list(request.params.id),
  )

  app.post(
    '/games/:id/challenges',
    {
      config: admin,
      schema: {
        summary: 'Add a challenge (disabled, with defaults)',
        tags,
        params: IdParams,
        body: ChallengeCreateModel,
        response: { 200: ChallengeEditDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => editChallenges.create(request.params.id, request.body),
  )

  app.post(
    '/games/:id/challenges/updateaccepted',
    {
      config: admin,
      schema: {
        summary: 'Recount the solves of every challenge',
        tags,
        params: IdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editChallenges.recountAccepted(request.params.id)
      return reply.send()
    },
  )

  app.get(
    '/games/:id/challenges/:cId',
    {
      config: admin,
      schema: {
        summary: 'One challenge with its flags',
        tags,
        params: ChallengeParams,
        response: { 200: ChallengeEditDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => editChallenges.get(request.params.id, request.params.cId),
  )

  app.put(
    '/games/:id/challenges/:cId',
    {
      config: admin,
      schema: {
        summary: 'Change a challenge (null or absent fields are kept)',
        tags,
        params: ChallengeParams,
        body: ChallengeUpdateModel,
        response: { 200: ChallengeEditDetailModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => editChallenges.update(request.params.id, request.params.cId, request.body),
  )

  app.delete(
    '/games/:id/challenges/:cId',
    {
      config: admin,
      schema: {
        summary: 'Delete a challenge',
        tags,
        params: ChallengeParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editChallenges.remove(request.params.id, request.params.cId)
      return reply.send()
    },
  )

  app.post(
    '/games/:id/challenges/:cId/attachment',
    {
      config: admin,
      schema: {
        summary: 'Set the challenge attachment (None, a stored file by hash, or a URL)',
        tags,
        params: ChallengeParams,
        body: AttachmentCreateModel,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editChallenges.setAttachment(request.params.id, request.params.cId, request.body)
      return reply.send()
    },
  )

  app.post(
    '/games/:id/challenges/:cId/flags',
    {
      config: admin,
      schema: {
        summary: 'Add flags (each may carry its own attachment)',
        tags,
        params: ChallengeParams,
        body: Type.Array(FlagCreateModel, { minItems: 1, maxItems: 1000 }),
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await editChallenges.addFlags(request.params.id, request.params.cId, request.body)
      return reply.send()
    },
  )

  app.delete(
    '/games/:id/challenges/:cId/flags/:fId',
    {
      config: admin,
      schema: {
        summary: 'Remove a flag; the last one removed disables the challenge',
        tags,
        params: FlagParams,
        response: { 200: TaskStatus, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendScalar(
        reply,
        await editChallenges.removeFlag(request.params.id, request.params.cId, request.params.fId),
      ),
  )
}
