import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ArrayResponse, Empty, errors, Id } from '../../http/schema.ts'
import {
  ContainerBackendStatus,
  ContainerCheckModel,
  ContainerInfoModel,
  ContainerInstanceModel,
  ContainerLogsModel,
} from './containers.schemas.ts'

const TeamParams = Type.Object({ id: Id, challengeId: Id })
const EditParams = Type.Object({ id: Id, cId: Id })

/** Containers: a team's own, the organisers' test container, the admin list (api-contract §2.2, §2.5, §2.6). */
export const containerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { containers, containerRuntime, containerCheck } = app.deps.services
  const team = { auth: 'user', rateLimit: 'Container' } as const

  app.post(
    '/game/:id/container/:challengeId',
    {
      config: team,
      schema: {
        summary: 'Start the team’s container of a challenge',
        tags: ['Game'],
        params: TeamParams,
        response: { 200: ContainerInfoModel, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => containers.start(request.user!, request.params.id, request.params.challengeId),
  )

  app.post(
    '/game/:id/container/:challengeId/extend',
    {
      config: team,
      schema: {
        summary: 'Extend the team’s container (inside the renewal window)',
        tags: ['Game'],
        params: TeamParams,
        response: { 200: ContainerInfoModel, ...errors(401, 403, 404, 429) },
      },
    },
    async (request) => containers.extend(request.user!, request.params.id, request.params.challengeId),
  )

  app.delete(
    '/game/:id/container/:challengeId',
    {
      config: team,
      schema: {
        summary: 'Destroy the team’s container',
        tags: ['Game'],
        params: TeamParams,
        response: { 200: Empty, ...errors(401, 403, 404, 429) },
      },
    },
    async (request, reply) => {
      await containers.destroy(request.user!, request.params.id, request.params.challengeId)
      return reply.send()
    },
  )

  app.post(
    '/edit/games/:id/challenges/:cId/container',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Start a test container of the challenge (replacing the previous one)',
        tags: ['Edit'],
        params: EditParams,
        response: { 200: ContainerInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => containers.startTest(request.user!, request.params.id, request.params.cId),
  )

  app.delete(
    '/edit/games/:id/challenges/:cId/container',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Destroy the challenge’s test container',
        tags: ['Edit'],
        params: EditParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await containers.destroyTest(request.params.id, request.params.cId)
      return reply.send()
    },
  )

  app.post(
    '/edit/games/:id/challenges/:cId/check',
    {
      config: { auth: 'admin' },
      schema: {
        summary:
          'Pennant addition: check the container challenge for real (image, start, port, 30 s up, memory, flag); one at a time per challenge',
        tags: ['Edit'],
        params: EditParams,
        response: { 200: ContainerCheckModel, ...errors(401, 403, 404, 409) },
      },
    },
    async (request) => containerCheck.run(request.user!, request.params.id, request.params.cId),
  )

  app.get(
    '/admin/instances/:id/logs',
    {
      // Monitors diagnose challenges during the contest too (an API token works here as well).
      config: { auth: 'monitor' },
      schema: {
        summary: 'Pennant addition: the last lines a container wrote',
        tags: ['Admin'],
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        querystring: Type.Object({ lines: Type.Integer({ minimum: 1, maximum: 1000, default: 200 }) }),
        response: { 200: ContainerLogsModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => containers.logs(request.params.id, request.query.lines),
  )

  app.get(
    '/admin/instances',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every team container, oldest first',
        tags: ['Admin'],
        response: { 200: ArrayResponse(ContainerInstanceModel), ...errors(401, 403) },
      },
    },
    async () => containers.list(),
  )

  app.delete(
    '/admin/instances/:id',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Destroy a container',
        tags: ['Admin'],
        params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await containers.destroyInstance(request.user!, request.params.id)
      return reply.send()
    },
  )

  app.get(
    '/ext/containers/status',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Pennant addition: which container backend runs and whether it answers',
        tags: ['Admin'],
        response: { 200: ContainerBackendStatus, ...errors(401, 403) },
      },
    },
    async () => containerRuntime.status(),
  )
}
