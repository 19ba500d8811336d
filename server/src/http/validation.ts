import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifySchemaCompiler } from 'fastify'

type Schema = Record<string, unknown>

function makeAjv(coerce: boolean, checkSchemas: boolean): Ajv {
  const ajv = new Ajv({
    coerceTypes: coerce ? 'array' : false,
    // Checking a schema against JSON Schema's own meta-schema first compiles that meta-schema:
    // ~50 ms of CPU at the first request a server validates. Our schemas are fixed in the code;
    // the test that compiles every route's schemas at once (`eager`) still checks them.
    validateSchema: checkSchemas,
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
    // Lengths count UTF-16 code units, as the contract's reference does (.NET string lengths):
    // an emoji is two. Ajv would count code points.
    unicode: false,
    // Ajv calls that option deprecated on every instance, though it still honours it: that one
    // line is dropped, everything else it says is kept.
    logger: {
      log: console.log,
      warn: (...args: unknown[]) => {
        if (!String(args[0]).includes('option unicode')) console.warn(...args)
      },
      error: console.error,
    },
  })
  addFormats.default(ajv)
  ajv.addKeyword({ keyword: 'x-enum' })
  ajv.addKeyword({ keyword: 'x-date' })
  return ajv
}

/**
 * Rewrites enum values given as integers or in another case to their member names, and
 * ISO-8601 dates to epoch milliseconds, in place, guided by the schema. Anything it does
 * not recognise is left for the validator to reject.
 */
export function normalise(schema: Schema | undefined, value: unknown): unknown {
  if (!schema || value === null || value === undefined) return value
  const members = schema['x-enum'] as Record<string, number> | undefined
  if (members) {
    if (typeof value === 'number') return Object.keys(members).find((k) => members[k] === value) ?? value
    if (typeof value === 'string') {
      const lower = value.toLowerCase()
      const byName = Object.keys(members).find((k) => k.toLowerCase() === lower)
      if (byName) return byName
      if (/^-?\d+$/.test(value))
        return Object.keys(members).find((k) => members[k] === Number(value)) ?? value
    }
    return value
  }
  if (schema['x-date'] && typeof value === 'string') {
    const ms = /^-?\d+$/.test(value) ? Number(value) : Date.parse(value)
    return Number.isNaN(ms) ? value : ms
  }
  for (const branch of (schema.anyOf as Schema[] | undefined) ?? []) {
    if (branch.type !== 'null') value = normalise(branch, value)
  }
  if (Array.isArray(value) && schema.items) {
    for (let i = 0; i < value.length; i++) value[i] = normalise(schema.items as Schema, value[i])
  } else if (typeof value === 'object' && schema.properties) {
    const obj = value as Record<string, unknown>
    const props = schema.properties as Record<string, Schema>
    for (const key of Object.keys(props)) {
      if (key in obj) obj[key] = normalise(props[key], obj[key])
    }
  }
  return value
}

/** Deeper than any model of the contract; JSON nested further is refused, not walked. */
export const MAX_DEPTH = 32

const TEXT_RULE = 'must not contain NUL characters or unpaired UTF-16 surrogates'
/** A NUL, or half of a UTF-16 surrogate pair without its other half. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: NUL is exactly what this looks for.
const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/**
 * What no model accepts, wherever it sits: text PostgreSQL cannot store (a NUL character, or a
 * lone UTF-16 surrogate, which JSON can carry as an escape), in a value or a key, or nesting
 * deeper than {@link MAX_DEPTH}. Walked with a queue, not recursion, so a body nested thousands
 * of levels deep costs a 400, not the stack.
 */
export function findUnstorable(value: unknown): string | null {
  const queue: [unknown, string, number][] = [[value, '', 0]]
  for (let i = 0; i < queue.length; i++) {
    const [v, path, depth] = queue[i]!
    if (typeof v === 'string') {
      if (UNSTORABLE_TEXT.test(v)) return `${path || 'value'} ${TEXT_RULE}`
    } else if (v && typeof v === 'object') {
      if (depth >= MAX_DEPTH) return `${path || 'value'} is nested too deeply`
      const entries = Array.isArray(v) ? v.map((item, n) => [`[${n}]`, item] as const) : Object.entries(v)
      for (const [k, item] of entries) {
        if (UNSTORABLE_TEXT.test(k))
          return `${path || 'value'} has a field name with NUL characters or unpaired UTF-16 surrogates`
        queue.push([item, k.startsWith('[') ? `${path}${k}` : path ? `${path}.${k}` : k, depth + 1])
      }
    }
  }
  return null
}

/** "userName must NOT have more than 15 characters" from Ajv's first error. */
export function describeError(part: string, error: ErrorObject | undefined): string {
  if (!error) return 'The request is not valid'
  const field = error.instancePath.split('/').filter(Boolean).join('.')
  const missing = error.keyword === 'required' ? String(error.params.missingProperty) : undefined
  const name = missing ?? field
  const where = name ? name : part
  if (missing) return `${where} is required`
  if (error.keyword === 'pattern' && error.params.pattern === '\\S') return `${where} must not be blank`
  if (error.keyword === 'enum') {
    return `${where} must be one of ${(error.params.allowedValues as unknown[]).join(', ')}`
  }
  if (error.keyword === 'additionalProperties') return `${where} has an unknown field`
  return `${where} ${error.message ?? 'is not valid'}`
}

/**
 * Body values are validated as sent (no type coercion, so `null` is never silently turned into
 * `""`); query strings and path parameters are coerced from text.
 */
export function createValidatorCompiler(opts: { eager?: boolean } = {}): FastifySchemaCompiler<Schema> {
  let strict: Ajv | undefined
  let coercing: Ajv | undefined
  const compile = (schema: Schema, httpPart?: string): ValidateFunction => {
    if (httpPart === 'body') {
      strict ??= makeAjv(false, !!opts.eager)
      return strict.compile(schema)
    }
    coercing ??= makeAjv(true, !!opts.eager)
    return coercing.compile(schema)
  }
  return ({ schema, httpPart }) => {
    // Compiled at the route's first request unless `eager`: compiling every route's schemas was
    // the largest part of the time to first request (a test compiles them all eagerly).
    let compiled = opts.eager ? compile(schema, httpPart) : undefined
    return (data: unknown) => {
      compiled ??= compile(schema, httpPart)
      const validate = compiled
      // Checked before anything walks the value: a deep body would exhaust the stack.
      const unstorable = findUnstorable(data)
      const value = unstorable ? data : normalise(schema, data)
      const ok = !unstorable && validate(value)
      if (ok) return { value }
      const message = unstorable ?? describeError(httpPart ?? 'body', validate.errors?.[0])
      const error = new Error(message) as Error & {
        validation: unknown
        validationContext: string
      }
      error.validation = validate.errors
      error.validationContext = httpPart ?? 'body'
      return { error }
    }
  }
}
