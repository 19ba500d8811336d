import { type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler'

/**
 * Fastify's own response serializers (fast-json-stringify), each compiled when its route first
 * answers unless `eager`: compiling the response schemas of every route was a large share of
 * the time to first request, and many routes (organiser and admin screens) are rarely called in
 * a given run. A test builds the app eagerly so every schema is still proven to compile.
 */
export function serializerFactory(opts: { eager: boolean }): SerializerFactory {
  return (externalSchemas, options) => {
    const compile = SerializerSelector()(externalSchemas, options)
    return (route) => {
      if (opts.eager) return compile(route)
      let serialize: ((doc: unknown) => string) | undefined
      return (doc) => {
        serialize ??= compile(route)
        return serialize(doc)
      }
    }
  }
}
