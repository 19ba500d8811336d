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

/** A deadlock or serialization failure: the transaction lost a race and may simply run again. */
export function isTransientConflict(err: unknown): boolean {
  const code = pgError(err)?.code
  return code === '40P01' || code === '40001'
}

/**
 * Runs `work` again (up to `attempts` times) when it loses a lock race, e.g. a delete cascading
 * into rows the judge is writing at that moment.
 */
export async function retryConflicts<T>(work: () => Promise<T>, attempts = 3): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await work()
    } catch (err) {
      if (i >= attempts || !isTransientConflict(err)) throw err
      await new Promise((r) => setTimeout(r, 20 * i))
    }
  }
}

/**
 * The embedded database's thread was lost (crash, kill, no answer) or is being replaced: the
 * statement was not run, or its outcome is unknown and its transaction rolled back. Answered as
 * 503 (a retry after the restart succeeds).
 */
export class DatabaseUnavailable extends Error {
  readonly statusCode = 503
  constructor(message: string, cause?: unknown) {
    super(message, { cause })
    this.name = 'DatabaseUnavailable'
  }
}

/** True when `err` (or what it wraps: Drizzle puts the driver's error in `cause`) is DatabaseUnavailable. */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e = err as { cause?: unknown } | undefined
  for (let depth = 0; e && depth < 4; depth++) {
    if (e instanceof DatabaseUnavailable) return true
    e = e.cause as typeof e
  }
  return false
}
