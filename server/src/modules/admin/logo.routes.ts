import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { notModified } from '../../http/conditional.ts'
import { Empty, errors } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { RUNTIME } from '../../paths.ts'
import { MAX_IMAGE_BYTES, prepareImage } from '../assets/images.ts'

/** Shown as the favicon until an admin uploads a logo (the Pennant flag, 256 px). */
const DEFAULT_FAVICON = path.join(RUNTIME.assets, 'favicon.webp')

/**
 * The platform logo (api-contract §2.2, `/api/admin/config/logo`) and the favicon made from it
 * (`GET /favicon.webp`, §2.11). Both are blobs whose hashes live in `globalConfig`.
 */
export const logoRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, blobs, audit } = app.deps.services
  const fallback = await readFile(DEFAULT_FAVICON)
  const fallbackTag = createHash('sha256').update(fallback).digest('hex').slice(0, 8)
  const fallbackTime = (await stat(DEFAULT_FAVICON)).mtime

  // Changes run one at a time: two at once would both release the same old blobs and leak theirs.
  let queue: Promise<unknown> = Promise.resolve()
  const serially = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work)
    queue = run.catch(() => {})
    return run
  }

  /** Points the settings at new logo/favicon blobs (or none) and lets go of the old ones. */
  async function replaceLogo(next: { logoHash: string; faviconHash: string }) {
    await settings.reload() // another replica may have saved the settings since
    const current = settings.get().globalConfig
    await settings.save('globalConfig', { ...current, ...next })
    // Released even when the new hash is the same: storing it again took its own reference.
    for (const hash of [current.logoHash, current.faviconHash]) {
      // The new logo is in place; an old blob that cannot be deleted only wastes disk space.
      await blobs.release(hash).catch((err) => app.log.warn({ err, hash }, 'releasing an old logo failed'))
    }
  }

  app.post(
    '/api/admin/config/logo',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Upload the platform logo (multipart field "file"); the favicon is made from it',
        tags: ['Admin'],
        consumes: ['multipart/form-data'],
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const upload = await readUpload(request, MAX_IMAGE_BYTES)
      // Both pictures are made before anything is stored: a file that is no picture changes nothing.
      const logo = await prepareImage(upload.bytes, { width: 640 })
      const favicon = await prepareImage(upload.bytes, { width: 256, webp: true })
      await serially(async () => {
        const logoFile = await blobs.store(logo.bytes, `logo.${logo.ext}`)
        const faviconFile = await blobs.store(favicon.bytes, 'favicon.webp')
        await replaceLogo({ logoHash: logoFile.hash, faviconHash: faviconFile.hash })
      })
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} uploaded a new platform logo`,
      )
      return reply.send()
    },
  )

  app.delete(
    '/api/admin/config/logo',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Remove the platform logo; the default favicon returns',
        tags: ['Admin'],
        response: { 200: Empty, ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      await serially(() => replaceLogo({ logoHash: '', faviconHash: '' }))
      audit.action('admin', request.user!, request.ip, `${request.user!.userName} removed the platform logo`)
      return reply.send()
    },
  )

  app.get('/favicon.webp', { schema: { hide: true } }, async (request, reply) => {
    const hash = settings.get().globalConfig.faviconHash
    const file = hash ? await blobs.find(hash) : undefined
    const stream = file ? await blobs.open(file.hash) : null
    const custom = file && stream ? { file, stream } : null
    const tag = custom ? custom.file.hash.slice(0, 8) : fallbackTag
    // The default's Last-Modified must not predate a removed custom favicon a client still has.
    const since = custom
      ? custom.file.uploadTimeUtc
      : new Date(Math.max(fallbackTime.getTime(), settings.changedAt().getTime()))
    reply.header('X-Content-Type-Options', 'nosniff')
    // A logo change must show at once, so clients revalidate every time (a 304 is cheap).
    if (
      notModified(request, reply, `favicon-${tag}`, since, { strong: true, cacheControl: 'public, no-cache' })
    ) {
      stream?.destroy()
      return reply
    }
    reply.type('image/webp')
    if (!custom) return reply.send(fallback)
    return reply.header('Content-Length', custom.file.fileSize).send(custom.stream)
  })
}
