import { randomBytes } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { CaptchaProviderName } from '../config/index.ts'

/** Paths owned by the server: never answered with the web page. */
const SERVER_PATHS = /^\/(api|assets|hub|openapi|healthz)(\/|$)/i

/** Where each response's nonce goes in the page (Vite's `html.cspNonce` placeholder style). */
const NONCE_SLOT = '%nonce%'
const TURNSTILE = 'https://challenges.cloudflare.com'

export interface WebClientOptions {
  /** The built client's folder; without an `index.html` there, only the API is served. */
  webDir?: string
  /** The captcha provider: Turnstile needs Cloudflare's script and frame admitted. */
  captcha?: CaptchaProviderName
}

/**
 * The page's Content-Security-Policy. Scripts: our own files, plus inline ones carrying this
 * response's nonce; Turnstile's only when it is the captcha.
 */
export function contentSecurityPolicy(nonce: string, opts: WebClientOptions = {}): string {
  const turnstile = opts.captcha === 'CloudflareTurnstile' ? ` ${TURNSTILE}` : ''
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${turnstile}`,
    // Mantine writes <style> elements at run time; a nonce here would switch 'unsafe-inline' off.
    "style-src 'self' 'unsafe-inline'",
    // Organisers' Markdown may show pictures hosted elsewhere; QR codes and previews are data/blob.
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // 'self' covers same-origin WebSockets too (live updates); the loopback is the player's local
    // tunnelling daemon (tunnel.mjs), which the page asks to forward proxied instances.
    "connect-src 'self' http://127.0.0.1:*",
    // The proof-of-work captcha runs in a worker loaded from /static.
    "worker-src 'self'",
    `frame-src 'self'${turnstile}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ')
}

const isIndexFile = (pathname: string) => pathname.toLowerCase() === '/index.html'

/** The page split around its nonce slots; every `<script>` gets one unless it has its own. */
function nonceSlots(html: string): string[] {
  return html.replace(/<script\b(?![^>]*\snonce=)/gi, `<script nonce="${NONCE_SLOT}"`).split(NONCE_SLOT)
}

/**
 * Serves the built web client from `dir` (if it was built): hashed files under `/static/` are
 * cached for a year, and any other GET without a file extension gets `index.html`, so client
 * routes such as `/account/verify` work on reload (api-contract §1.14).
 */
export async function registerWebClient(app: FastifyInstance, dir: string, opts: WebClientOptions = {}) {
  const indexFile = path.join(dir, 'index.html')
  if (!existsSync(indexFile)) {
    app.log.info({ dir }, 'web client not built; serving the API only')
    return null
  }
  const index = nonceSlots(readFileSync(indexFile, 'utf8'))
  await app.register(fastifyStatic, {
    root: dir,
    // One route for the folder, looking files up when asked. With a route per file (the web
    // client has ~700 with its compressed copies) registering them cost ~0.5 s of CPU at every
    // start. A path that is no file goes on to the not-found handler below, as before.
    wildcard: true,
    index: false,
    // Our own Cache-Control below: a year for hashed files, an hour for the rest.
    cacheControl: false,
    // The build writes .br and .gz beside each file (web/scripts/compress.mjs).
    preCompressed: true,
    // The page itself always goes out with its nonce and policy, never as a plain file; a
    // folder's path (`/` first) goes to the not-found handler, which answers with the page.
    allowedPath: (pathname) => !isIndexFile(pathname) && !pathname.endsWith('/'),
    setHeaders(res, file) {
      const immutable = file.includes(`${path.sep}static${path.sep}`)
      // Caches must keep the brotli, gzip and plain copies apart.
      res.setHeader('Vary', 'Accept-Encoding')
      res.setHeader(
        'Cache-Control',
        immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
      )
    },
  })
  return function serveIndex(request: FastifyRequest, reply: FastifyReply): boolean {
    const pathname = request.url.split('?')[0] ?? '/'
    const last = pathname.split('/').pop() ?? ''
    const page = !SERVER_PATHS.test(pathname) && (!last.includes('.') || isIndexFile(pathname))
    if (!['GET', 'HEAD'].includes(request.method) || !page) return false
    // A fresh nonce per response, so one seen once is no use for an injected script later.
    const nonce = randomBytes(16).toString('base64')
    reply
      .code(200)
      .header('Cache-Control', 'no-cache')
      .header('Content-Security-Policy', contentSecurityPolicy(nonce, opts))
      .header('X-Content-Type-Options', 'nosniff')
      .header('X-Frame-Options', 'DENY')
      .header('Referrer-Policy', 'strict-origin-when-cross-origin')
      .type('text/html; charset=utf-8')
      .send(index.join(nonce))
    return true
  }
}
