import cookie from '@fastify/cookie'
import multipart from '@fastify/multipart'
import swagger from '@fastify/swagger'
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import websocket from '@fastify/websocket'
import Fastify, { type FastifyBaseLogger, type FastifyReply, type FastifyServerOptions } from 'fastify'
import type { Config } from './config/index.ts'
import type { Database, Db } from './db/index.ts'
import { authPlugin } from './http/auth.ts'
import { compressionPlugin } from './http/compression.ts'
import { errorHandlerPlugin } from './http/error-handler.ts'
import { serializerFactory } from './http/serialization.ts'
import './http/types.ts'
import { AppError } from './http/errors.ts'
import { createValidatorCompiler, findUnstorable } from './http/validation.ts'
import { type AdjustableClock, type Clock, systemClock } from './infra/clock/index.ts'
import type { Infra } from './infra/index.ts'
import { RequestLog } from './infra/logger.ts'
import { accountRoutes } from './modules/account/account.routes.ts'
import { adminConfigRoutes } from './modules/admin/config.routes.ts'
import { logoRoutes } from './modules/admin/logo.routes.ts'
import { participationRoutes } from './modules/admin/participation.routes.ts'
import { adminTeamRoutes } from './modules/admin/teams.routes.ts'
import { adminUserRoutes } from './modules/admin/users.routes.ts'
import { assetRoutes } from './modules/assets/assets.routes.ts'
import { fileListRoutes } from './modules/assets/files.routes.ts'
import { captureRoutes } from './modules/captures/captures.routes.ts'
import { containerRoutes } from './modules/containers/containers.routes.ts'
import { ctftimeRoutes } from './modules/ctftime/ctftime.routes.ts'
import { editChallengeRoutes } from './modules/edit/challenges.routes.ts'
import { editFolderRoutes } from './modules/edit/folder.routes.ts'
import { editGameRoutes } from './modules/edit/games.routes.ts'
import { editImageRoutes } from './modules/edit/images.routes.ts'
import { editNoticeRoutes } from './modules/edit/notices.routes.ts'
import { featureRoutes } from './modules/features/features.routes.ts'
import { freezeRoutes } from './modules/freeze/freeze.routes.ts'
import { gameRoutes } from './modules/game/games.routes.ts'
import { monitorRoutes } from './modules/game/monitor.routes.ts'
import { playRoutes } from './modules/game/play.routes.ts'
import { writeupRoutes } from './modules/game/writeups.routes.ts'
import type { HubTimings } from './modules/hubs/hub.ts'
import { hubRoutes } from './modules/hubs/hubs.routes.ts'
import { infoRoutes } from './modules/info/info.routes.ts'
import { logRoutes } from './modules/logs/logs.routes.ts'
import { oidcAdminRoutes, oidcRoutes } from './modules/oidc/oidc.routes.ts'
import { createMetrics } from './modules/ops/metrics.ts'
import { opsRoutes } from './modules/ops/ops.routes.ts'
import { testClockRoutes } from './modules/ops/test-clock.routes.ts'
import { editPostRoutes } from './modules/posts/posts.edit.routes.ts'
import { postsRoutes } from './modules/posts/posts.routes.ts'
import { proxyRoutes } from './modules/proxy/proxy.routes.ts'
import { teamRoutes } from './modules/team/team.routes.ts'
import { tokenRoutes } from './modules/tokens/tokens.routes.ts'
import { transferRoutes } from './modules/transfer/transfer.routes.ts'
import type { WebhookTimings } from './modules/webhooks/webhook-queue.ts'
import { webhookRoutes } from './modules/webhooks/webhooks.routes.ts'
import { createServices, type Services } from './services.ts'

// Route plugins reach what they need through `app.deps`, decorated below: typed here, with the
// decoration, so the layers under the app import nothing of it.
declare module 'fastify' {
  interface FastifyInstance {
    deps: { config: Config; db: Db; infra: Infra; services: Services; clock: Clock }
  }
}

export interface AppDeps {
  config: Config
  database: Database
  infra: Infra
  logger?: FastifyServerOptions['logger']
  /** A logger made before the app (main.ts logs while it opens the infra). */
  loggerInstance?: FastifyBaseLogger
  /** Compile every route's validators and serializers while building (a test proves they all
   * compile); otherwise each compiles at its route's first request, for a quicker start. */
  compileSchemasEagerly?: boolean
  /** Shorter hub keep-alive and timeouts (tests). */
  hubTimings?: Partial<HubTimings>
  /** Shorter webhook retries and timeouts (tests). */
  webhookTimings?: Partial<WebhookTimings>
  /** The time game rules and jobs go by (tests move an adjustable one); the wall clock by default. */
  clock?: Clock
  /** PENNANT_TEST_CLOCK=1 only: this clock, which admins move with `POST /api/ext/test/clock`. */
  testClock?: AdjustableClock
}

/** Builds the whole HTTP application from its dependencies; tests build it the same way. */
export async function buildApp(deps: AppDeps) {
  const { config, database, infra } = deps
  const clock = deps.testClock ?? deps.clock ?? systemClock
  const eager = deps.compileSchemasEagerly ?? false
  const app = Fastify({
    ...(deps.loggerInstance
      ? { loggerInstance: deps.loggerInstance }
      : { logger: deps.logger ?? { level: config.logLevel } }),
    logController: new RequestLog(),
    trustProxy: config.trustProxy,
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true },
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    schemaController: { compilersFactory: { buildSerializer: serializerFactory({ eager }) } },
    // Router-level faults (malformed URL encoding, over-long path parameters) in our error shape.
    frameworkErrors: (error, _request, reply) => {
      const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : 400
      const title = status === 414 ? 'A path segment is too long' : 'The URL is malformed'
      return (reply as FastifyReply)
        .code(status)
        .type('application/json; charset=utf-8')
        .send({ title, status })
    },
  }).withTypeProvider<TypeBoxTypeProvider>()

  app.setValidatorCompiler(createValidatorCompiler({ eager }))
  // A JSON content type with no body at all (some clients send the header on every POST) is no
  // body: routes without one work, routes that need one answer the validator's 400.
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  // Text the database cannot store (NUL, lone surrogates) is refused here, once for every JSON
  // route, with or without a body schema; the validator checks query strings and parameters.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined)
    parseJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined)
      const unstorable = findUnstorable(value)
      if (unstorable) return done(new AppError('Model_ValidationFailed', 400, unstorable), undefined)
      done(null, value)
    })
  })
  const metrics = createMetrics()
  const services = createServices({
    config,
    db: database.db,
    infra,
    log: app.log,
    metrics,
    webhookTimings: deps.webhookTimings,
    clock,
  })
  await services.settings.reload()
  await services.captures.prepare()
  if (config.containers.trafficCapture && config.containers.portMapping !== 'PlatformProxy')
    app.log.warn(
      'CONTAINER_TRAFFIC_CAPTURE is on, but only proxied connections are captured: set CONTAINER_PORT_MAPPING=PlatformProxy',
    )
  app.decorate('deps', { config, db: database.db, infra, services, clock })

  await app.register(cookie)
  await app.register(multipart, { limits: { fileSize: 32 * 1024 * 1024, files: 20 } })
  // One upgrade handler for every WebSocket route (the container proxy and the hubs); routes opt
  // in with `websocket: true` and pass through the same session, rate-limit and role hooks.
  // A client breaking the protocol (a frame over the limit, a bad opcode) is the client's fault:
  // one warning line without a stack. Anything else is still an error.
  await app.register(websocket, {
    options: { maxPayload: 1024 * 1024 },
    errorHandler(error, socket, request) {
      const code = (error as { code?: unknown }).code
      if (typeof code === 'string' && code.startsWith('WS_ERR_')) {
        request.log.warn({ code, url: request.url }, `websocket closed: ${error.message}`)
      } else {
        request.log.error({ err: error }, 'websocket failed')
      }
      socket.terminate()
    },
  })
  await app.register(swagger, {
    openapi: {
      info: { title: 'Pennant API', version: '1.6.2', description: 'Compatible with the GZCTF 1.6.2 API' },
    },
  })
  await app.register(compressionPlugin)
  await app.register(errorHandlerPlugin, {
    webDir: config.webDir,
    captcha: config.captcha.provider,
    audit: services.audit,
  })
  await app.register(authPlugin, {
    sessions: services.sessions,
    apiTokens: services.apiTokens,
    touch: (userId, ip) => services.account.touch(userId, ip),
    audit: services.audit,
    limits: infra.rateLimits,
    rateLimitDisabled: config.rateLimitDisabled,
    clock: app.deps.clock,
  })
  // /metrics and /healthz (live, ready), and request timing: registered before the routes it times.
  await app.register(opsRoutes, { database, metrics })

  await app.register(accountRoutes, { prefix: '/api/account' })
  await app.register(teamRoutes, { prefix: '/api/team' })
  await app.register(adminConfigRoutes, { prefix: '/api/admin' })
  await app.register(logoRoutes)
  await app.register(adminUserRoutes, { prefix: '/api/admin' })
  await app.register(adminTeamRoutes, { prefix: '/api/admin' })
  await app.register(logRoutes, { prefix: '/api/admin' })
  await app.register(fileListRoutes, { prefix: '/api/admin' })
  await app.register(editGameRoutes, { prefix: '/api/edit' })
  await app.register(editChallengeRoutes, { prefix: '/api/edit' })
  await app.register(editFolderRoutes, { prefix: '/api/edit' })
  await app.register(editImageRoutes, { prefix: '/api/edit' })
  await app.register(editNoticeRoutes, { prefix: '/api/edit' })
  await app.register(editPostRoutes, { prefix: '/api/edit' })
  await app.register(participationRoutes, { prefix: '/api' })
  await app.register(gameRoutes, { prefix: '/api' })
  await app.register(playRoutes, { prefix: '/api' })
  await app.register(monitorRoutes, { prefix: '/api' })
  await app.register(writeupRoutes, { prefix: '/api' })
  await app.register(containerRoutes, { prefix: '/api' })
  await app.register(proxyRoutes, { prefix: '/api' })
  await app.register(captureRoutes, { prefix: '/api' })
  await app.register(tokenRoutes, { prefix: '/api/tokens' })
  await app.register(infoRoutes, { prefix: '/api' })
  await app.register(postsRoutes, { prefix: '/api' })
  await app.register(assetRoutes)
  await app.register(hubRoutes, { timings: deps.hubTimings })
  await app.register(featureRoutes, { prefix: '/api/ext' })
  await app.register(freezeRoutes, { prefix: '/api/ext' })
  await app.register(ctftimeRoutes, { prefix: '/api/ext' })
  await app.register(oidcRoutes, { prefix: '/api/ext' })
  await app.register(oidcAdminRoutes, { prefix: '/api/ext' })
  await app.register(transferRoutes, { prefix: '/api/ext' })
  await app.register(webhookRoutes, { prefix: '/api/ext/admin/webhooks' })
  if (deps.testClock) await app.register(testClockRoutes, { prefix: '/api/ext', clock: deps.testClock })

  app.get('/openapi/v1.json', { schema: { hide: true } }, async () => app.swagger())
  // One webhook sender per server (they share the queue safely; see webhook-queue.ts).
  services.webhookQueue.start()
  app.addHook('onClose', async () => {
    // Background jobs stop here and their leases pass to another server at once.
    await infra.leases.release()
    await services.webhookQueue.stop()
    await services.judge.close()
    services.scoreboard.close()
    services.settings.close()
    await services.proxy.close()
    await services.audit.flush()
  })
  return app
}
export type App = Awaited<ReturnType<typeof buildApp>>
