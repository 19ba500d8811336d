import type { FastifyError, FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import FindMyWay, { type HTTPMethod } from 'find-my-way'
import { isDatabaseUnavailable } from '../db/errors.ts'
import { RUNTIME } from '../paths.ts'
import { type Culture, cultureOf, loadTitles, type TitleTable } from './culture.ts'
import { AppError, type ErrorKey, englishTitles, fail, format } from './errors.ts'
import { registerWebClient, type WebClientOptions } from './spa.ts'
import type { AuditWriter } from './types.ts'

/** Seconds a client waits before trying again while the database is unreachable (a restart took 0.2-0.7 s in tests). */
export const UNAVAILABLE_RETRY_AFTER_S = 2
const RETRY_AFTER = { 'Retry-After': String(UNAVAILABLE_RETRY_AFTER_S) }

const METHODS: HTTPMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']

/** A catalogue error's title in `culture` when its file has the key; English otherwise. */
function titleIn(err: AppError, culture: Culture, titles: TitleTable): string {
  const translated = err.params && titles.get(culture)?.[err.key]
  return translated ? format(translated, err.params ?? []) : err.message
}

function toBody(err: AppError, title: string) {
  return err.data === undefined
    ? { title, status: err.bodyStatus }
    : { title, data: err.data, status: err.bodyStatus }
}

/** Framework errors (bad JSON, too large, wrong content type) as catalogue errors. */
function fromFramework(err: FastifyError): AppError {
  if (err.validation) return new AppError('Model_ValidationFailed', 400, err.message)
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
      return fail('Request_TooLarge')
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return fail('Request_UnsupportedMediaType')
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('Model_ValidationFailed', 400, 'The body is not valid JSON')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('Model_ValidationFailed', 400, 'The body is empty')
  }
  if (err instanceof SyntaxError)
    return new AppError('Model_ValidationFailed', 400, 'The body is not valid JSON')
  const status = err.statusCode ?? 500
  if (status >= 400 && status < 500) return new AppError('Custom', status, err.message)
  // The database is restarting or out of reach: nothing is wrong with the request, and the pool
  // reconnects by itself, so the client is told to come back shortly rather than of a bug.
  if (isDatabaseUnavailable(err)) return fail('Server_Unavailable', { headers: RETRY_AFTER })
  return fail('Server_Error')
}

export interface ErrorHandlerOptions extends WebClientOptions {
  /** Where server errors are recorded for the admins. */
  audit: AuditWriter
  /** Where the `<culture>.json` title files are; the server's own `locales/` by default. */
  localesDir?: string
}

/**
 * One error shape for everything: `{title, status}` (decisions.md item 1). Global, so that every
 * encapsulated module answers errors the same way.
 */
export const errorHandlerPlugin = fp(async (app: FastifyInstance, opts: ErrorHandlerOptions) => {
  const titles = loadTitles(opts.localesDir ?? RUNTIME.locales)
  // The culture (api-contract §1.10) is read once per request and named in `Content-Language`.
  app.decorateRequest('culture', 'en-US')
  app.decorateRequest('localTitle', function (this: { culture: Culture }, key: ErrorKey, params = []) {
    return format(titles.get(this.culture)?.[key] ?? englishTitles[key], params)
  })
  app.addHook('onRequest', async (request, reply) => {
    request.culture = cultureOf({
      query: request.query,
      cookies: request.cookies,
      acceptLanguage: request.headers['accept-language'],
    })
    reply.header('Content-Language', request.culture)
  })
  const serveIndex = opts.webDir ? await registerWebClient(app, opts.webDir, opts) : null

  // A second router holding every route, to tell "wrong method" (405) from "no such path" (404).
  const routes = FindMyWay({ caseSensitive: false, ignoreTrailingSlash: true })
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (!routes.hasRoute(method as HTTPMethod, route.url))
        routes.on(method as HTTPMethod, route.url, () => {})
    }
  })

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const err = error instanceof AppError ? error : fromFramework(error)
    if (err.key === 'Server_Unavailable') {
      // Expected during a restart and possibly hundreds at once: one warning line each, and no
      // admin-log record (it is written to the very database that is unreachable).
      request.log.warn({ err: error.message }, 'database unavailable; answered 503')
    } else if (err.httpStatus >= 500) {
      request.log.error({ err: error }, 'unhandled error')
      opts.audit.write({
        level: 'Error',
        logger: 'http',
        message: `${request.method} ${request.url.slice(0, 200)} failed: ${error.message.slice(0, 500)}`,
        status: 'Failed',
        userName: request.user?.userName,
        ip: request.ip,
      })
    }
    if (err.headers) reply.headers(err.headers)
    return reply
      .code(err.httpStatus)
      .type('application/json; charset=utf-8')
      .send(toBody(err, titleIn(err, request.culture, titles)))
  })

  app.setNotFoundHandler((request, reply) => {
    if (serveIndex?.(request, reply)) return reply
    const path = request.url.split('?')[0] ?? '/'
    const allowed = METHODS.filter((m) => routes.find(m, path))
    const err = allowed.length ? fail('Route_MethodNotAllowed') : fail('Route_NotFound')
    if (allowed.length) reply.header('Allow', allowed.join(', '))
    return reply
      .code(err.httpStatus)
      .type('application/json; charset=utf-8')
      .send(toBody(err, titleIn(err, request.culture, titles)))
  })
})
