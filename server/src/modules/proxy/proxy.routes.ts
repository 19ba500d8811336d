import { readFileSync } from 'node:fs'
import type { IncomingMessage } from 'node:http'
import path from 'node:path'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { fail } from '../../http/errors.ts'
import { errors } from '../../http/schema.ts'
import { RUNTIME } from '../../paths.ts'

/** The tunnel command players run (`node tunnel.mjs`), read once. */
const TUNNEL = readFileSync(path.join(RUNTIME.assets, 'tunnel.mjs'))
const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

/**
 * The platform proxy (api-contract §2.8): `GET /api/proxy/{id}` upgrades to a WebSocket carrying
 * one TCP connection to a team's container; `/api/proxy/noinst/{id}` does the same for an
 * organiser's test container, for admins only (decisions.md item 10). Every check that can
 * refuse runs before the upgrade, so refusals are plain HTTP answers in the `{title, status}`
 * shape: 400 disabled or over the connection limit, 404 unknown, 204 not a WebSocket request,
 * 418 the container does not answer.
 */
export const proxyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { proxy } = app.deps.services
  // What the server read past an upgrade request (rarely anything): it goes along with the
  // socket to the proxy process. Registered first, so it is known before the route runs.
  const heads = new WeakMap<IncomingMessage, Buffer>()
  app.server.prependListener('upgrade', (req: IncomingMessage, _socket: unknown, head: Buffer) => {
    if (head.length) heads.set(req, head)
  })

  const route = (url: string, testContainer: boolean) =>
    app.route({
      method: 'GET',
      url,
      config: testContainer ? { auth: 'admin' } : {},
      schema: {
        summary: testContainer
          ? 'WebSocket to a test container’s TCP port (admins)'
          : 'WebSocket to a team container’s TCP port',
        tags: ['Proxy'],
        params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
        response: { 204: Type.Null(), ...errors(401, 403, 404, 418) },
      },
      preHandler: async (request, reply) => {
        const { id } = request.params as { id: string }
        if (!GUID.test(id)) throw fail('Container_NotFound')
        const entry = await proxy.find(id, testContainer)
        if (!request.ws) return
        const connection = await proxy.connect(entry)
        // Every check passed: the proxy process completes the handshake on this socket, and
        // this server neither answers nor upgrades.
        reply.hijack()
        proxy.handOver(connection, request.raw, heads.get(request.raw), {
          // The player as the server sees them (behind a trusted reverse proxy: its forwarded address).
          host: request.ip,
          port: request.socket.remotePort ?? 0,
        })
      },
      // Not a WebSocket request, and the container is valid: 204, as upstream answers.
      handler: async (_request, reply) => reply.code(204).send(null),
    })

  route('/proxy/:id', false)
  route('/proxy/noinst/:id', true)

  app.get(
    '/ext/tunnel.mjs',
    {
      schema: {
        summary: 'Pennant addition: the tunnel command (Node.js 20+, no dependencies) for proxied containers',
        tags: ['Proxy'],
      },
    },
    async (_request, reply) =>
      reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('Content-Disposition', 'attachment; filename=tunnel.mjs')
        .header('Cache-Control', 'no-cache')
        .send(TUNNEL),
  )
}
