import { createHash } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'

/** A short, stable tag for a payload. */
export const hashTag = (value: unknown) =>
  createHash('sha1')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('base64url')
    .slice(0, 16)

/**
 * Conditional GET (api-contract §1.9): sets `ETag: W/"<tag>"`, `Last-Modified` and no-cache,
 * and answers 304 when the client already has this version. Returns true when it answered 304.
 */
export function notModified(
  request: FastifyRequest,
  reply: FastifyReply,
  tag: string,
  lastModified: Date,
  opts: { private?: boolean; strong?: boolean; cacheControl?: string } = {},
): boolean {
  const etag = opts.strong ? `"${tag}"` : `W/"${tag}"`
  reply.header('ETag', etag)
  reply.header('Last-Modified', lastModified.toUTCString())
  reply.header(
    'Cache-Control',
    opts.cacheControl ?? `${opts.private ? 'private, ' : ''}no-cache, must-revalidate`,
  )
  const inm = request.headers['if-none-match']
  let fresh = false
  if (inm) {
    fresh = inm.split(',').some((t) => {
      const v = t.trim()
      return v === '*' || v === `W/"${tag}"` || v === `"${tag}"`
    })
  } else {
    const ims = request.headers['if-modified-since']
    const since = ims ? Date.parse(ims) : Number.NaN
    fresh = !Number.isNaN(since) && since >= Math.floor(lastModified.getTime() / 1000) * 1000
  }
  if (fresh) reply.code(304).send()
  return fresh
}
