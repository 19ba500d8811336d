/** PostgreSQL error facts, read the same way from node-postgres and PGlite (drizzle wraps them in `cause`). */
function pgError(err: unknown): { code?: string; constraint?: string } | undefined {
  let e = err as { code?: string; constraint?: string; cause?: unknown } | undefined
  for (let depth = 0; e && depth < 3; depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e
    e = e.cause as typeof e
  }
  return undefined
}

/** True for a unique violation, optionally of the named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = pgError(err)
  return e?.code === '23505' && (!constraint || e.constraint === constraint)
}
