import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { sendScalar } from '../../http/reply.ts'
import { ArrayResponse, Empty, errors, PageQuery } from '../../http/schema.ts'
import { ProfileUserInfoModel } from '../account/account.schemas.ts'
import {
  AdminUserInfoModel,
  SearchQuery,
  UserCreateBatch,
  UserIdParams,
  UserInfoModel,
} from './users.schemas.ts'

const admin = { auth: 'admin' } as const
const tags = ['Admin']

/** Admin — users (api-contract §2.2, `/api/admin/users`). */
export const adminUserRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { adminUsers } = app.deps.services

  app.get(
    '/users',
    {
      config: admin,
      schema: {
        summary: 'A page of users, by id',
        tags,
        querystring: PageQuery(500, 100),
        response: { 200: ArrayResponse(UserInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => adminUsers.page(request.query.count, request.query.skip),
  )

  app.post(
    '/users',
    {
      config: admin,
      schema: {
        summary: 'Create users in one batch (existing names or e-mails are updated), with their teams',
        tags,
        body: UserCreateBatch,
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await adminUsers.createBatch(request.user!, request.ip, request.body)
      return reply.send()
    },
  )

  app.post(
    '/users/search',
    {
      config: admin,
      schema: {
        summary: 'Up to 30 users whose name, e-mail, real name, number, phone or id contains the hint',
        tags,
        querystring: SearchQuery,
        response: { 200: ArrayResponse(UserInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => adminUsers.search(request.query.hint),
  )

  app.get(
    '/users/:userid',
    {
      config: admin,
      schema: {
        summary: 'One user',
        tags,
        params: UserIdParams,
        response: { 200: ProfileUserInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => adminUsers.detail(request.params.userid),
  )

  app.put(
    '/users/:userid',
    {
      config: admin,
      schema: {
        summary: 'Edit a user, their role included (Banned ends their sessions)',
        tags,
        params: UserIdParams,
        body: AdminUserInfoModel,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await adminUsers.update(request.user!, request.ip, request.params.userid, request.body)
      return reply.send()
    },
  )

  app.delete(
    '/users/:userid/password',
    {
      config: admin,
      schema: {
        summary: 'Give a user a new random password (returned) and end their sessions',
        tags,
        params: UserIdParams,
        response: { 200: Type.String(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) =>
      sendScalar(reply, await adminUsers.resetPassword(request.user!, request.ip, request.params.userid)),
  )

  app.delete(
    '/users/:userid',
    {
      config: admin,
      schema: {
        summary: 'Delete a user who captains no team',
        tags,
        params: UserIdParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await adminUsers.remove(request.user!, request.ip, request.params.userid)
      return reply.send()
    },
  )
}
