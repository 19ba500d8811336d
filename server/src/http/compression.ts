import { promisify } from 'node:util'
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib'
import type { FastifyInstance, FastifyReply } from 'fastify'
import fp from 'fastify-plugin'

/** The content codings the server writes, in its order of preference at equal weight. */
export type Coding = 'br' | 'gzip'
const CODINGS: Coding[] = ['br', 'gzip']

/**
 * Below this many bytes a body goes out as it is: the saving would be a few dozen bytes, less
 * than the time to compress is worth, and small answers fit one packet either way.
 */
export const MIN_COMPRESS_BYTES = 1024

/** Bodies from this size on are compressed on libuv's thread pool, not on the event loop. */
const ASYNC_FROM_BYTES = 64 * 1024

/** Bodies worth compressing: JSON, and text (the web page itself). Files and archives are not. */
const COMPRESSIBLE = /^(application\/(json|[\w.+-]+\+json)|text\/)/i

/**
 * The coding to answer with under an `Accept-Encoding` header: the acceptable one (q > 0) with
 * the highest weight, Brotli before gzip at equal weight; `*` stands for any coding not named.
 * Null means the body goes out unencoded (no header, `identity` only, or both refused).
 */
export function negotiate(header: string | string[] | undefined): Coding | null {
  if (!header) return null
  const weights = new Map<string, number>()
  for (const part of (Array.isArray(header) ? header.join(',') : header).split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';')
    if (!name) continue
    let q = 1
    for (const p of params) {
      const [k, v] = p.trim().split('=')
      if (k === 'q') q = Number(v)
    }
    weights.set(name === 'x-gzip' ? 'gzip' : name, Number.isFinite(q) ? Math.min(1, Math.max(0, q)) : 0)
  }
  let best: Coding | null = null
  let bestQ = 0
  for (const coding of CODINGS) {
    const q = weights.get(coding) ?? weights.get('*') ?? 0
    if (q > bestQ) {
      best = coding
      bestQ = q
    }
  }
  return best
}

/** Adds `Accept-Encoding` to the response's `Vary` (once). */
export function varyOnEncoding(reply: FastifyReply) {
  const vary = reply.getHeader('vary')
  const current = Array.isArray(vary) ? vary.join(', ') : vary === undefined ? '' : String(vary)
  if (/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(current)) return
  reply.header('Vary', current ? `${current}, Accept-Encoding` : 'Accept-Encoding')
}

/**
 * Per-response Brotli quality: quick, since each answer is compressed as it is sent. Quality 4
 * is about as fast as gzip's default level and smaller on our JSON.
 */
const DYNAMIC_QUALITY = 4
const GZIP_LEVEL = 6

const brotliOptions = (size: number, quality: number) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: size,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
})
const brotliAsync = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Compresses `bytes` for `coding` on libuv's thread pool. `quality` sets Brotli's quality
 * (documents compressed once and sent many times can afford more than the per-response one).
 */
export function compress(bytes: Buffer, coding: Coding, quality = DYNAMIC_QUALITY): Promise<Buffer> {
  return coding === 'gzip'
    ? gzipAsync(bytes, { level: GZIP_LEVEL })
    : brotliAsync(bytes, brotliOptions(bytes.length, quality))
}

/** Small bodies are compressed in place: a trip to the thread pool would cost more. */
function compressDynamic(bytes: Buffer, coding: Coding): Buffer | Promise<Buffer> {
  if (bytes.length >= ASYNC_FROM_BYTES) return compress(bytes, coding)
  return coding === 'gzip'
    ? gzipSync(bytes, { level: GZIP_LEVEL })
    : brotliCompressSync(bytes, brotliOptions(bytes.length, DYNAMIC_QUALITY))
}

/**
 * Compresses JSON and text answers of at least {@link MIN_COMPRESS_BYTES} with Brotli or gzip as
 * `Accept-Encoding` allows, and says `Vary: Accept-Encoding` on every answer whose body may be
 * compressed (and on 304s of the API, which stand for such bodies). Streams (files, archives,
 * pictures, the web client's own files, served precompressed by @fastify/static) and answers
 * that already carry a `Content-Encoding` (the scoreboard, compressed once per version) are left
 * as they are.
 */
export const compressionPlugin = fp(async (app: FastifyInstance) => {
  // A callback hook, not an async one: most answers pass through untouched, and scoreboard
  // reads should not pay for a promise each.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (reply.statusCode === 304) {
      if (request.url.startsWith('/api/')) varyOnEncoding(reply)
      return done(null, payload)
    }
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload)
    if (reply.hasHeader('content-encoding')) return done(null, payload)
    const type = reply.getHeader('content-type')
    if (typeof type !== 'string' || !COMPRESSIBLE.test(type)) return done(null, payload)
    if (Buffer.byteLength(payload) < MIN_COMPRESS_BYTES) return done(null, payload)
    varyOnEncoding(reply)
    const coding = negotiate(request.headers['accept-encoding'])
    if (!coding) return done(null, payload)
    const bytes = typeof payload === 'string' ? Buffer.from(payload) : payload
    const encode = (body: Buffer) => {
      reply.header('Content-Encoding', coding)
      reply.removeHeader('content-length')
      done(null, body)
    }
    const body = compressDynamic(bytes, coding)
    if (Buffer.isBuffer(body)) return encode(body)
    body.then(encode, (err: Error) => done(err))
  })
})
