import { timingSafeEqual } from 'node:crypto'
import { sql } from 'drizzle-orm'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import type { Database } from '../../db/index.ts'
import { fail } from '../../http/errors.ts'
import { errors } from '../../http/schema.ts'
import type { Metrics } from './metrics.ts'

export interface OpsOptions {
  database: Database
  metrics: Metrics
}

/** Whether this server is on its way out (`/healthz/ready` says 503 from the first moment). */
export interface OpsState {
  draining: boolean
}

const Health = Type.Object(
  {
    status: Type.String(),
    /** With `REDIS_URL` set: `up`, or `degraded` while this server runs without Redis. */
    redis: Type.Optional(Type.Union([Type.Literal('up'), Type.Literal('degraded')])),
  },
  { additionalProperties: false },
)

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/**
 * Whether a request may read `/metrics`. With `METRICS_TOKEN` set: whoever sends it as a
 * bearer token. Without it: only a client on this machine that did not come through a proxy
 * (the socket's own address, not `X-Forwarded-For`: a reverse proxy on the same host would
 * otherwise pass the whole internet through as loopback).
 */
function metricsAccess(request: FastifyRequest, token: string | undefined): 'ok' | 401 | 403 {
  if (token) {
    const header = request.headers.authorization
    const given = header?.startsWith('Bearer ') ? header.slice(7).trim() : ''
    return given && sameSecret(given, token) ? 'ok' : 401
  }
  const proxied = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined
  return LOOPBACK.has(request.socket.remoteAddress ?? '') && !proxied ? 'ok' : 403
}

/**
 * Operations: `/metrics` (Prometheus), `/healthz` (database answers; as before),
 * `/healthz/live` (the process answers) and `/healthz/ready` (it should get traffic: not
 * draining for shutdown, database answering). Also times every request by route pattern, and
 * while draining asks clients to close their connection after each answer.
 */
const opsPlugin: FastifyPluginAsync<OpsOptions> = async (app, opts) => {
  const { database, metrics } = opts
  const { config, services } = app.deps
  const state: OpsState = { draining: false }
  app.decorate('ops', state)

  // What lives elsewhere, read at each scrape.
  metrics.gauge(
    'pennant_judge_queue_depth',
    'Submissions this server has accepted and not yet judged (queued, or in a batch being judged)',
    (set) => {
      const { queued, judging } = services.judge.stats()
      set(queued, { state: 'queued' })
      set(judging, { state: 'judging' })
    },
    ['state'],
  )
  metrics.gauge(
    'pennant_hub_connections',
    'Open live-update (SignalR) connections to this server, by hub',
    (set) => {
      // The hubs are registered after this plugin; they exist by the time anyone scrapes.
      for (const [name, hub] of Object.entries(app.hubs ?? {})) set(hub.count(), { hub: name })
    },
    ['hub'],
  )
  // Platform-wide (every server reports the same figure): take max(), not sum(), across servers.
  metrics.gauge(
    'pennant_containers_running',
    'Challenge containers the platform has running',
    async (set) => {
      const rows = (await database.db.execute(sql`select count(*)::int n from containers`)) as unknown as {
        rows: { n: number }[]
      }
      set(rows.rows[0]?.n ?? 0)
    },
  )
  metrics.gauge(
    'pennant_db_pool_connections',
    'PostgreSQL pool connections: total open, idle, requests waiting for one, and the pool size (absent on PGlite)',
    (set) => {
      const pool = database.pool?.()
      if (!pool) return
      set(pool.total, { state: 'total' })
      set(pool.idle, { state: 'idle' })
      set(pool.waiting, { state: 'waiting' })
      set(pool.max, { state: 'max' })
    },
    ['state'],
  )
  metrics.gauge(
    'pennant_db_info',
    'Which database this server uses (1 for its kind: postgres or pglite)',
    (set) => set(1, { kind: database.kind }),
    ['kind'],
  )
  metrics.counter('pennant_db_statements_total', 'Statements this server sent to the database', () =>
    database.queries(),
  )
  const { redis } = app.deps.infra
  if (redis)
    metrics.gauge(
      'pennant_redis_up',
      '1 while this server shares state through Redis; 0 while Redis is away and it uses its own rate limits, cache and live updates',
      (set) => set(redis.up ? 1 : 0),
    )
  metrics.gauge('pennant_draining', '1 while this server is shutting down', (set) =>
    set(state.draining ? 1 : 0),
  )

  // Latency by route pattern (`/api/game/:id`), so the label set stays small whatever the URLs.
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? '(unmatched)'
    metrics.request(request.method, route, reply.statusCode, reply.elapsedTime / 1000)
  })
  // While draining, kept-alive connections close after their answer, so the next request opens a
  // new connection, which the proxy sends to a server that is staying.
  app.addHook('onSend', async (_request, reply) => {
    if (state.draining) reply.header('connection', 'close')
  })

  // Scrapes and probes come every few seconds: their request lines would drown the log.
  const quiet = { logLevel: 'warn' as const }

  app.get(
    '/metrics',
    {
      ...quiet,
      schema: {
        summary:
          'Prometheus metrics (text format). Needs `Authorization: Bearer <METRICS_TOKEN>` when that is set; otherwise only clients on this machine not coming through a proxy',
        tags: ['Operations'],
        produces: ['text/plain'],
        response: { 200: Type.String(), ...errors(401, 403) },
      },
    },
    async (request, reply) => {
      const access = metricsAccess(request, config.ops.metricsToken)
      if (access === 401) throw fail('Auth_LoginRequired')
      if (access === 403) throw fail('Auth_AccessForbidden')
      reply.type(metrics.contentType).header('cache-control', 'no-store')
      return metrics.text()
    },
  )

  async function databaseAnswers(): Promise<boolean> {
    try {
      await database.db.execute(sql`select 1`)
      return true
    } catch {
      return false
    }
  }

  // As before our additions: the database answers (or not); draining does not change it.
  app.get('/healthz', { ...quiet, schema: { hide: true } }, async (_request, reply) =>
    (await databaseAnswers()) ? { status: 'Healthy' } : reply.code(503).send({ status: 'Unhealthy' }),
  )

  app.get(
    '/healthz/live',
    {
      ...quiet,
      schema: {
        summary: 'Liveness: the process answers (restart it only when this fails)',
        tags: ['Operations'],
        response: { 200: Health },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      return { status: 'Healthy' }
    },
  )

  app.get(
    '/healthz/ready',
    {
      ...quiet,
      schema: {
        summary:
          'Readiness: send this server traffic. 503 `Draining` once it is shutting down, 503 `Unhealthy` while its database does not answer. With Redis configured, `redis` says `up` or `degraded` (Redis away: still 200, this server serves on its own)',
        tags: ['Operations'],
        response: { 200: Health, 503: Health },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store')
      // Redis away is no reason to take this server out: it serves on its own (and says so).
      const detail = redis ? { redis: redis.up ? ('up' as const) : ('degraded' as const) } : {}
      if (state.draining) return reply.code(503).send({ status: 'Draining', ...detail })
      if (!(await databaseAnswers())) return reply.code(503).send({ status: 'Unhealthy', ...detail })
      return { status: 'Healthy', ...detail }
    },
  )
}

/** Registered at the root (not encapsulated): its hooks time every route. */
export const opsRoutes = fp(opsPlugin, { name: 'ops' })

declare module 'fastify' {
  interface FastifyInstance {
    /** Shutdown state: main.ts sets `draining` on SIGTERM. */
    ops: OpsState
  }
}
