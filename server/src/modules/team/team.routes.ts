import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { sendScalar } from '../../http/reply.ts'
import { Empty, errors } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { MAX_IMAGE_BYTES } from '../assets/images.ts'
import {
  KickParams,
  SignatureVerifyModel,
  TeamInfoModel,
  TeamParams,
  TeamTransferModel,
  TeamUpdateModel,
} from './team.schemas.ts'

const user = { auth: 'user' } as const
const tags = ['Team']
const InviteCode = Type.String({ description: '<team name>:<team id>:<32 hex token>' })

/** Team — `/api/team/*` (api-contract §2.9). */
export const teamRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { teams } = app.deps.services

  app.get(
    '/',
    {
      config: user,
      schema: {
        summary: 'Your teams',
        tags,
        response: { 200: Type.Array(TeamInfoModel), ...errors(401, 403) },
      },
    },
    async (request) => teams.mine(request.user!),
  )

  app.post(
    '/',
    {
      config: user,
      schema: {
        summary: 'Create a team (you become its captain)',
        tags,
        body: TeamUpdateModel,
        response: { 200: TeamInfoModel, ...errors(401, 403) },
      },
    },
    async (request) => teams.create(request.user!, request.body),
  )

  app.post(
    '/accept',
    {
      config: user,
      schema: {
        summary: 'Join a team with its invite code (the body is the code as a JSON string)',
        tags,
        body: Type.String({ maxLength: 256 }),
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await teams.accept(request.user!, request.body)
      return reply.send()
    },
  )

  app.post(
    '/verify',
    {
      schema: {
        summary: 'Check a team token against a game’s public key',
        tags,
        body: SignatureVerifyModel,
        response: { 200: Empty, ...errors(401) },
      },
    },
    async (request, reply) => {
      teams.verify(request.body)
      return reply.send()
    },
  )

  app.get(
    '/:id',
    {
      schema: {
        summary: 'A team',
        tags,
        params: TeamParams,
        response: { 200: TeamInfoModel, ...errors(404) },
      },
    },
    async (request) => teams.get(request.params.id),
  )

  app.put(
    '/:id',
    {
      config: user,
      schema: {
        summary: 'Rename a team or change its bio (captain)',
        tags,
        params: TeamParams,
        body: TeamUpdateModel,
        response: { 200: TeamInfoModel, ...errors(401, 403) },
      },
    },
    async (request) => teams.update(request.user!, request.params.id, request.body),
  )

  app.delete(
    '/:id',
    {
      config: user,
      schema: {
        summary: 'Delete a team (captain)',
        tags,
        params: TeamParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await teams.remove(request.user!, request.params.id)
      return reply.send()
    },
  )

  app.put(
    '/:id/transfer',
    {
      config: user,
      schema: {
        summary: 'Hand the captaincy to another member (captain)',
        tags,
        params: TeamParams,
        body: TeamTransferModel,
        response: { 200: TeamInfoModel, ...errors(401, 403) },
      },
    },
    async (request) => teams.transfer(request.user!, request.params.id, request.body.newCaptainId),
  )

  app.get(
    '/:id/invite',
    {
      config: user,
      schema: {
        summary: 'The invite code (captain)',
        tags,
        params: TeamParams,
        response: { 200: InviteCode, ...errors(401, 403) },
      },
    },
    async (request, reply) =>
      sendScalar(reply, await teams.inviteCode(request.user!, request.params.id, false)),
  )

  app.put(
    '/:id/invite',
    {
      config: user,
      schema: {
        summary: 'A new invite code; old ones stop working (captain)',
        tags,
        params: TeamParams,
        response: { 200: InviteCode, ...errors(401, 403) },
      },
    },
    async (request, reply) =>
      sendScalar(reply, await teams.inviteCode(request.user!, request.params.id, true)),
  )

  app.post(
    '/:id/kick/:userId',
    {
      config: user,
      schema: {
        summary: 'Remove a member (captain)',
        tags,
        params: KickParams,
        response: { 200: TeamInfoModel, ...errors(401, 403) },
      },
    },
    async (request) => teams.kick(request.user!, request.params.id, request.params.userId),
  )

  app.post(
    '/:id/leave',
    {
      config: user,
      schema: {
        summary: 'Leave a team',
        tags,
        params: TeamParams,
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      await teams.leave(request.user!, request.params.id)
      return reply.send()
    },
  )

  app.put(
    '/:id/avatar',
    {
      config: user,
      schema: {
        summary: 'Upload the team avatar (captain; multipart field "file")',
        tags,
        params: TeamParams,
        consumes: ['multipart/form-data'],
        response: { 200: Type.String(), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, MAX_IMAGE_BYTES)
      return sendScalar(reply, await teams.setAvatar(request.user!, request.params.id, upload.bytes))
    },
  )
}
