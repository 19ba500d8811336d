import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { errors } from '../../http/schema.ts'
import type { AdjustableClock } from '../../infra/clock/index.ts'

/**
 * `POST /api/ext/test/clock`: moves the server's clock forward, so the end-to-end suite skips a
 * container's turn or a freeze's reveal instead of waiting for it against the built server.
 * Registered only when the server starts with PENNANT_TEST_CLOCK=1 (never in a deployment);
 * admins only, and left out of the OpenAPI document.
 */
export const testClockRoutes: FastifyPluginAsyncTypebox<{ clock: AdjustableClock }> = async (app, opts) => {
  const { clock } = opts
  app.post(
    '/test/clock',
    {
      config: { auth: 'admin' },
      schema: {
        hide: true,
        body: Type.Object(
          // Up to 30 days at a time: enough to end any test game, small enough to stay a date.
          { advanceMs: Type.Integer({ minimum: 0, maximum: 30 * 86_400_000 }) },
          { additionalProperties: false },
        ),
        response: {
          200: Type.Object({ now: Type.Integer(), offsetMs: Type.Integer() }),
          ...errors(400, 401, 403),
        },
      },
    },
    async (request) => {
      clock.advance(request.body.advanceMs)
      request.log.warn({ offsetMs: clock.offset() }, 'the test clock was moved forward')
      return { now: clock.now(), offsetMs: clock.offset() }
    },
  )
}
