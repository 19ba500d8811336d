import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'

/** Paths owned by the server: never answered with the web page. */
const SERVER_PATHS = /^\/(api|assets|hub|openapi|healthz)(\/|$)/i

/**
 * Serves the built web client from `dir` (if it was built): hashed files under `/static/` are
 * cached for a year, and any other GET without a file extension gets `index.html`, so client
 * routes such as `/account/verify` work on reload (api-contract §1.14).
 */
export async function registerWebClient(app: FastifyInstance, dir: string) {
  const indexFile = path.join(dir, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.info({ dir }, 'web client not built; serving the API only')
    return null
  }
  const index = readFileSync(indexFile)
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    index: false,
    setHeaders(res, file) {
      const immutable = file.includes(`${path.sep}static${path.sep}`)
      res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600')
    },
  })
  return function serveIndex(request: FastifyRequest, reply: FastifyReply): boolean {
    const pathname = request.url.split('?')[0] ?? '/'
    const last = pathname.split('/').pop() ?? ''
    if (!['GET', 'HEAD'].includes(request.method) || SERVER_PATHS.test(pathname) || last.includes('.'))
      return false
    reply
      .code(200)
      .header('Cache-Control', 'no-cache')
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .type('text/html; charset=utf-8')
      .send(index)
    return true
  }
}
