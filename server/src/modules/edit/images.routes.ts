import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { AppError, fail } from '../../http/errors.ts'
import { errors } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { ContainerError } from '../../infra/containers/index.ts'

/** A build context: a challenge's folder, small enough to hold in memory while the engine reads it. */
const MAX_CONTEXT_BYTES = 64 * 1024 * 1024

/**
 * An image reference as Docker writes it: lower-case path components, an optional registry host
 * with a port, an optional tag. The engine checks it again; this keeps junk out of its log.
 */
const IMAGE_REF =
  '^(?:[a-z0-9.-]+(?::[0-9]+)?/)?[a-z0-9]+(?:[._-][a-z0-9]+)*(?:/[a-z0-9]+(?:[._-][a-z0-9]+)*)*(?::[A-Za-z0-9_][A-Za-z0-9_.-]{0,127})?$'

/**
 * Building challenge images on the engine the server uses (`pennant challenges sync --build`):
 * organisers keep a Dockerfile beside `challenge.yml` and never run `docker` on the server.
 */
export const editImageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/images',
    {
      config: { auth: 'admin' },
      schema: {
        summary:
          'Build an image on the server\'s container engine from a build context (a tar archive with a Dockerfile at its top, multipart field "file"); answers the image id and the last lines of the build',
        tags: ['Edit'],
        consumes: ['multipart/form-data'],
        querystring: Type.Object({ tag: Type.String({ pattern: IMAGE_REF, maxLength: 255 }) }),
        response: {
          200: Type.Object({ tag: Type.String(), id: Type.String(), log: Type.Array(Type.String()) }),
          ...errors(401, 403, 413, 503),
        },
      },
    },
    async (request) => {
      const backend = app.deps.infra.containers
      if (!backend) throw fail('Container_NotConfigured')
      const upload = await readUpload(request, MAX_CONTEXT_BYTES)
      const { tag } = request.query
      try {
        const built = await backend.build(upload.bytes, tag)
        request.log.info({ tag, image: built.id }, 'challenge image built')
        return { tag, ...built }
      } catch (err) {
        if (!(err instanceof ContainerError)) throw err
        // The engine's own words: a failed RUN step, a missing file, a malformed Dockerfile.
        throw new AppError(
          'Custom',
          err.failure === 'Unreachable' ? 503 : 400,
          `Building ${tag} failed: ${err.detail}`,
        )
      }
    },
  )
}
