import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rm } from 'node:fs/promises'
import path from 'node:path'
import { Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AppError, fail } from '../../http/errors.ts'
import { errors, IdParams } from '../../http/schema.ts'
import { streamUploads } from '../../http/upload.ts'

const admin = { auth: 'admin' } as const
const tags = ['Extensions']

const FullQuery = Type.Object({
  full: Type.Boolean({
    default: false,
    description:
      'Export: add teams, their participations, submissions and writeups. Import: take them too, onto teams of the same name that exist here',
  }),
})

const Warning = Type.Object({
  code: Type.Enum([
    'DynamicFlagsChange',
    'ContainerImages',
    'RemoteAttachments',
    'TeamsLeftOut',
    'TeamsNotFound',
  ]),
  values: Type.Array(Type.String()),
})

const Preview = Type.Object({
  title: Type.String(),
  full: Type.Boolean({ description: 'Whether the archive carries teams and submissions' }),
  challenges: Type.Integer(),
  flags: Type.Integer(),
  attachments: Type.Integer(),
  notices: Type.Integer(),
  files: Type.Integer(),
  size: Type.Integer({ description: 'The archive, in bytes' }),
  unpackedSize: Type.Integer({ description: 'What it unpacks to, in bytes' }),
  teams: Type.Integer(),
  submissions: Type.Integer(),
  teamsMatched: Type.Integer({
    description: 'Teams of the archive that exist here by name (with ?full=true)',
  }),
  submissionsImported: Type.Integer(),
  warnings: Type.Array(Warning),
})
const Imported = Type.Intersect([Preview, Type.Object({ id: Type.Integer({ description: 'The new game' }) })])

/**
 * Game transfer (our addition, switch `gameTransfer`): a game out as one archive, and an archive
 * in as a new game, with a preview first. Admins only; while the switch is off the routes answer
 * 404 as if they did not exist.
 */
export const transferRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, transfer, audit } = app.deps.services

  app.addHook('preHandler', async () => {
    if (!settings.isOn('gameTransfer')) throw fail('Route_NotFound')
  })

  /**
   * The uploaded archive, written to a file of its own under DATA_DIR as it arrives (never held in
   * memory), handed to `use`, then removed. Over the limit is a 413 in the transfer's words.
   */
  async function withArchive<T>(request: FastifyRequest, use: (file: string) => Promise<T>): Promise<T> {
    const dir = path.join(app.deps.config.dataDir, 'tmp')
    await mkdir(dir, { recursive: true })
    const file = path.join(dir, `import-${randomUUID()}.zip`)
    try {
      let size = 0
      try {
        await streamUploads(
          request,
          { field: 'file', maxBytes: transfer.limits.maxArchiveBytes, maxFiles: 1 },
          async (up) => {
            const counter = new Transform({
              transform(chunk: Buffer, _encoding, done) {
                size += chunk.length
                done(null, chunk)
              },
            })
            await pipeline(up.file, counter, createWriteStream(file, { flags: 'wx' }))
            return true
          },
        )
      } catch (err) {
        if (err instanceof AppError && err.key === 'File_SizeTooLarge')
          throw fail('Transfer_ArchiveTooLarge', {
            params: [Math.floor(transfer.limits.maxArchiveBytes / 1048576)],
          })
        throw err
      }
      if (size === 0) throw fail('File_SizeZero')
      return await use(file)
    } finally {
      await rm(file, { force: true })
    }
  }

  app.get(
    '/games/:id/export',
    {
      config: admin,
      schema: {
        summary: 'Export a game as one archive (ZIP: manifest.json and blobs/<sha256>)',
        tags,
        params: IdParams,
        querystring: FullQuery,
        produces: ['application/zip'],
        response: { 200: Type.Unsafe({ type: 'string', format: 'binary' }), ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { id } = request.params
      const { stream, title } = await transfer.exportGame(id, request.query.full)
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} exported game #${id} ${title}${request.query.full ? ' with its teams' : ''}`,
      )
      const fileName = `game-${id}${request.query.full ? '-full' : ''}.pennant.zip`
      reply.header('Content-Type', 'application/zip')
      reply.header('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      return (reply as FastifyReply).send(stream)
    },
  )

  app.post(
    '/games/import/preview',
    {
      config: admin,
      schema: {
        summary: 'What importing this archive would create (multipart field "file"); creates nothing',
        tags,
        consumes: ['multipart/form-data'],
        querystring: FullQuery,
        response: { 200: Preview, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request) => withArchive(request, (file) => transfer.preview(file, request.query.full)),
  )

  app.post(
    '/games/import',
    {
      config: admin,
      schema: {
        summary: 'Import an archive as a new game, with new keys (multipart field "file")',
        tags,
        consumes: ['multipart/form-data'],
        querystring: FullQuery,
        response: { 200: Imported, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const result = await withArchive(request, (file) => transfer.importGame(file, request.query.full))
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} imported game #${result.id} ${result.title} from an archive`,
      )
      return result
    },
  )
}
