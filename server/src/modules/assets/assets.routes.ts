import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { notModified } from '../../http/conditional.ts'
import { fail } from '../../http/errors.ts'
import { errors } from '../../http/schema.ts'

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
}
