import { type Static, type TSchema, Type } from 'typebox'

/** A value that may be `null`; the key is always written. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()])

/**
 * A contract enum: written as its member name; on input the name (any case) or the
 * integer value is accepted and normalised to the name before validation (see validation.ts).
 */
export function Enum<const M extends Record<string, number>>(name: string, members: M) {
  return Type.Unsafe<keyof M & string>({
    type: 'string',
    enum: Object.keys(members),
    title: name,
    'x-enum': members,
  } as unknown as TSchema)
}

/** An epoch-millisecond instant; on input an ISO-8601 string is accepted too. */
export const Timestamp = (opts: { description?: string } = {}) =>
  Type.Unsafe<number>({ type: 'integer', 'x-date': true, ...opts } as unknown as TSchema)

/** A "required" string of the contract: rejects null, empty and whitespace-only values. */
export const RequiredString = (opts: { maxLength?: number; minLength?: number; description?: string } = {}) =>
  Type.String({ pattern: '\\S', ...opts, minLength: Math.max(1, opts.minLength ?? 1) })

export const ErrorBody = Type.Object(
  { title: Type.String(), status: Type.Integer() },
  { description: 'RequestResponse: the error (or info) body' },
)
export type ErrorBody = Static<typeof ErrorBody>

/** `RequestResponse<T>`: an info body carrying a value. */
export const ResponseWithData = <T extends TSchema>(data: T) =>
  Type.Object({ title: Type.String(), data, status: Type.Integer() })

/** `ArrayResponse<T>`: a page of a list. */
export const ArrayResponse = <T extends TSchema>(item: T) =>
  Type.Object({ data: Type.Array(item), length: Type.Integer(), total: Type.Integer() })

/** An empty 200 body, as upstream returns for most mutations. */
export const Empty = Type.Unsafe<undefined>({ description: 'Empty body' } as unknown as TSchema)

/** Declares the error statuses a route can answer with, all in the `{title, status}` shape. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  const out: Record<number, typeof ErrorBody> = {}
  for (const s of [400, ...statuses]) out[s] = ErrorBody
  return out
}

/** Contract enums used by more than one area. */
export const RoleValues = { Banned: 0, User: 1, Monitor: 2, Admin: 3 } as const
export const Role = Enum('Role', RoleValues)
export type RoleName = keyof typeof RoleValues

/** `?count=&skip=` paging of a list; `count` is capped at `max` (contract ranges differ per route). */
export const PageQuery = (max: number, defaultCount = 0) =>
  Type.Object({
    count: Type.Integer({ minimum: 0, maximum: max, default: defaultCount }),
    skip: Type.Integer({ minimum: 0, maximum: 2 ** 31 - 1, default: 0 }),
  })

/**
 * A row id (game, challenge, team…): a positive 32-bit integer. 0 and negatives are malformed,
 * a 400 without a database query (docs/differences.md).
 */
export const Id = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 })
/** The path parameters of `…/{id}`. */
export const IdParams = Type.Object({ id: Id })
/** The path parameters of `/api/posts/{id}`: a post id is eight hex digits. */
export const PostIdParams = Type.Object({ id: Type.String({ pattern: '^[0-9a-fA-F]{8}$' }) })
