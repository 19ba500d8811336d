import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { ArrayResponse, Empty, errors, Nullable, PageQuery } from '../../http/schema.ts'
import { TeamInfoModel, TeamParams } from '../team/team.schemas.ts'
import { SearchQuery } from './users.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Admin']

const AdminTeamModel = Type.Object({
  name: Type.Optional(Nullable(Type.String({ maxLength: 20 }))),
  bio: Type.Optional(Nullable(Type.String({ maxLength: 72 }))),
  locked: Type.Optional(Nullable(Type.Boolean())),
})

/** Admin — teams (api-contract §2.2, `/api/admin/teams`). */
export const adminTeamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { teams, audit } = app.deps.services

  app.get(
    '/teams',
    {
      config: admin,
      schema: {
        summary: 'A page of teams with their members, by id',
        tags,
        querystring: PageQuery(500, 100),
        response: { 200: ArrayResponse(TeamInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => teams.page(request.query.count, request.query.skip),
  )

  app.post(
    '/teams/search',
    {
      config: admin,
      schema: {
        summary: 'Up to 30 teams whose name contains the hint, or whose id it is',
        tags,
        querystring: SearchQuery,
        response: { 200: ArrayResponse(TeamInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => teams.search(request.query.hint),
  )

  app.put(
    '/teams/:id',
    {
      config: admin,
      schema: {
        summary: 'Rename, describe, lock or unlock a team',
        tags,
        params: TeamParams,
        body: AdminTeamModel,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const { before, after } = await teams.adminUpdate(request.params.id, request.body)
      const what = before.locked !== after.locked ? (after.locked ? 'locked' : 'unlocked') : 'edited'
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} ${what} the team ${after.name}${before.name !== after.name ? ` (was ${before.name})` : ''}`,
      )
      return reply.send()
    },
  )

  app.delete(
    '/teams/:id',
    {
      config: admin,
      schema: {
        summary: 'Delete a team with its registrations, containers and submissions',
        tags,
        params: TeamParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const team = await teams.adminRemove(request.params.id)
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} deleted the team ${team.name}`,
      )
      return reply.send()
    },
  )
}
