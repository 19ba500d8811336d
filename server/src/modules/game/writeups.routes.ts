import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply } from 'fastify'
import { Type } from 'typebox'
import { Empty, errors, IdParams, Nullable } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { MAX_WRITEUP_BYTES } from './writeups.service.ts'

const BasicWriteupInfoModel = Type.Object({
  submitted: Type.Boolean(),
  /** Stored file name, `#` when none. */
  name: Type.String(),
  fileSize: Type.Integer(),
  /** The organisers' instructions. */
  note: Type.String(),
})
const WriteupInfoModel = Type.Object({
  id: Type.Integer(),
  team: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    bio: Nullable(Type.String()),
    avatar: Nullable(Type.String()),
    locked: Type.Boolean(),
    members: Type.Null(),
  }),
  url: Type.String(),
  uploadTimeUtc: Type.Integer(),
})

/** Writeups: `/api/game/{id}/writeup` for teams, `/api/admin/writeups/{id}` for organisers. */
export const writeupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { writeups } = app.deps.services

  app.get(
    '/game/:id/writeup',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'The team’s writeup and the instructions',
        tags: ['Game'],
        params: IdParams,
        response: { 200: BasicWriteupInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => writeups.info(request.user!, request.params.id),
  )

  app.post(
    '/game/:id/writeup',
    {
      config: { auth: 'user' },
      schema: {
        summary: 'Hand in the writeup (multipart field "file", a PDF up to 20 MiB)',
        tags: ['Game'],
        params: IdParams,
        consumes: ['multipart/form-data'],
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, MAX_WRITEUP_BYTES)
      await writeups.upload(request.user!, request.params.id, upload)
      return reply.send()
    },
  )

  app.get(
    '/admin/writeups/:id',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every writeup of a game',
        tags: ['Admin'],
        params: IdParams,
        response: { 200: Type.Array(WriteupInfoModel), ...errors(401, 403, 404) },
      },
    },
    async (request) =>
      (await writeups.list(request.params.id)).map(({ id, team, url, uploadTimeUtc }) => ({
        id,
        team,
        url,
        uploadTimeUtc,
      })),
  )

  app.get(
    '/admin/writeups/:id/all',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Every writeup of a game as a .tar.gz',
        tags: ['Admin'],
        params: IdParams,
        response: { ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { fileName, stream } = await writeups.archive(request.params.id)
      reply.header('Content-Type', 'application/gzip')
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      return (reply as FastifyReply).send(stream)
    },
  )
}
