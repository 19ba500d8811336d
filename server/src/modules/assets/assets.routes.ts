import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { notModified } from '../../http/conditional.ts'
import { AppError, fail } from '../../http/errors.ts'
import { Empty, errors } from '../../http/schema.ts'
import { streamUploads } from '../../http/upload.ts'
import { LocalFile } from './assets.schemas.ts'

const TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.heic': 'image/heic',
  '.svg': 'image/svg+xml',
  '.pdf': 'application/pdf',
  '.txt': 'text/plain; charset=utf-8',
  '.zip': 'application/zip',
  '.gz': 'application/gzip',
  '.tar': 'application/x-tar',
  '.json': 'application/json',
  '.pcap': 'application/vnd.tcpdump.pcap',
}
/** Admin uploads are attachments and the like: larger than pictures, still bounded. */
const MAX_ASSET_BYTES = 64 * 1024 * 1024
/** A stored name never carries a path. */
const safeName = (name: string) => name.split(/[\\/]/).pop()?.slice(0, 255) || 'file'

/** Entity URLs carry no extension (`/assets/<hash>/avatar`); stored pictures are WebP or GIF. */
const PICTURE_NAMES = new Set(['avatar', 'poster', 'logo', 'favicon'])

function contentType(name: string, storedName: string): string {
  const ext = path.extname(name).toLowerCase()
  if (TYPES[ext]) return TYPES[ext]!
  if (!ext && PICTURE_NAMES.has(name.toLowerCase()))
    return TYPES[path.extname(storedName).toLowerCase()] ?? 'image/webp'
  return 'application/octet-stream'
}

/** `GET /assets/{hash}/{name}`: blobs by content hash; the name only sets type and download name. */
export const assetRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { blobs } = app.deps.services

  app.get(
    '/assets/:hash/:filename',
    {
      schema: {
        summary: 'Download a stored file',
        tags: ['Assets'],
        params: Type.Object({
          hash: Type.String({ pattern: '^[0-9a-f]{64}$', description: 'Lowercase hex SHA-256' }),
          filename: Type.String({ minLength: 1, maxLength: 255 }),
        }),
        response: { 200: Type.Unsafe({ description: 'The file' } as never), ...errors(404) },
      },
    },
    async (request, reply) => {
      const { hash, filename } = request.params
      const file = await blobs.find(hash)
      const stream = file ? await blobs.open(hash) : null
      if (!file || !stream) throw fail('File_NotFound')
      // Uploaded content must never run as part of this site.
      reply.header('X-Content-Type-Options', 'nosniff')
      reply.header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      const cached = notModified(request, reply, hash.slice(8, 16), file.uploadTimeUtc, {
        strong: true,
        cacheControl: 'public, max-age=604800',
      })
      if (cached) {
        stream.destroy()
        return reply
      }
      const type = contentType(filename, file.name)
      const inline = type.startsWith('image/') && !type.includes('svg')
      reply.header('Content-Type', type)
      reply.header('Content-Length', file.fileSize)
      reply.header(
        'Content-Disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(filename)}`,
      )
      return reply.send(stream)
    },
  )

  app.post(
    '/api/assets',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Store files (multipart field "files", repeatable); same content is stored once',
        tags: ['Assets'],
        consumes: ['multipart/form-data'],
        querystring: Type.Object({
          filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[^/\\\\]+$' })),
        }),
        response: { 200: Type.Array(LocalFile), ...errors(401, 403) },
      },
    },
    async (request) => {
      // Each file goes straight to storage as it arrives: 20 files of 64 MiB never sit in memory.
      return streamUploads(
        request,
        { field: 'files', maxBytes: MAX_ASSET_BYTES, maxFiles: 20 },
        async ({ file, filename }) => {
          let staged: Awaited<ReturnType<typeof blobs.stage>>
          try {
            staged = await blobs.stage(file)
          } catch (err) {
            // Limits and broken forms keep their own answer; the rest is the disk failing.
            if (err instanceof AppError) throw err
            request.log.error({ err }, 'storing an uploaded file failed')
            throw fail('Assets_IOError')
          }
          if (staged.size === 0) {
            await staged.discard()
            return null
          }
          try {
            const row = await staged.keep(request.query.filename ?? safeName(filename))
            return { hash: row.hash, name: row.name }
          } catch (err) {
            await staged.discard().catch(() => {})
            request.log.error({ err }, 'recording an uploaded file failed')
            throw fail('Assets_IOError')
          }
        },
      )
    },
  )

  app.delete(
    '/api/assets/:hash',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Drop one reference to a stored file (the last one deletes it)',
        tags: ['Assets'],
        params: Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{64}$' }) }),
        response: { 200: Empty, ...errors(401, 403, 404) },
      },
    },
    async (request, reply) => {
      if (!(await blobs.find(request.params.hash))) throw fail('File_NotFound')
      await blobs.release(request.params.hash)
      return reply.send()
    },
  )
}
