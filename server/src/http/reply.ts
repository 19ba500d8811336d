import type { FastifyReply } from 'fastify'

/**
 * Sends a bare string or number as a JSON scalar (`"abc"`, `42`), as the contract's routes that
 * return a URL, an id or an enum do. Fastify would otherwise send strings as plain text.
 */
export function sendScalar(reply: FastifyReply, value: string | number): FastifyReply {
  return reply.type('application/json; charset=utf-8').serializer(JSON.stringify).send(value)
}
