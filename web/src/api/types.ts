import type { paths } from './schema.gen'

export type * from './schema.gen'

type Method = 'get' | 'put' | 'post' | 'delete'
type Op<P extends keyof paths, M extends Method> = paths[P][M] extends infer O
  ? O extends { responses: unknown }
    ? O
    : never
  : never

/** The JSON body of a route's 200 answer: `Ok<'/api/game/{id}', 'get'>`. */
export type Ok<P extends keyof paths, M extends Method = 'get'> = Op<P, M>['responses'] extends {
  200: { content: { 'application/json': infer T } }
}
  ? T
  : undefined

/** The JSON request body of a route. */
export type Body<P extends keyof paths, M extends Method> =
  Op<P, M> extends {
    requestBody?: { content: { 'application/json': infer T } }
  }
    ? T
    : never

/** Paths that answer GET. */
export type GetPath = {
  [P in keyof paths]: paths[P]['get'] extends { responses: unknown } ? P : never
}[keyof paths]

/** The parameters of a GET route (path and query). */
export type GetParams<P extends GetPath> = Op<P, 'get'>['parameters']
