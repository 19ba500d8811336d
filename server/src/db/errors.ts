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

/** Socket errors of a database that is down, restarting or out of reach. */
const UNREACHABLE_SOCKET = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
])

/** node-postgres and pg-pool say these in words, with no code. */
const UNREACHABLE_MESSAGE =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection closed|connect ECONNREFUSED/i

/**
 * True when `err` says the database cannot be reached right now (restart, failover, network)
 * rather than that the request was wrong: admin or crash shutdown (57P01, 57P02), "cannot
 * connect now" while it starts or stops (57P03), a connection exception (class 08), a refused
 * or reset socket, a pool that timed out connecting, or a connection cut mid-query. Such a
 * request may simply be tried again a moment later (the pool reconnects by itself). The embedded
 * database says so with DatabaseUnavailable while its thread is replaced.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  let e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | undefined
  for (let depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    if (e instanceof DatabaseUnavailable) return true
    const code = typeof e.code === 'string' ? e.code : ''
    if (code === '57P01' || code === '57P02' || code === '57P03' || /^08[0-9A-Z]{3}$/.test(code)) return true
    if (UNREACHABLE_SOCKET.has(code)) return true
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGE.test(e.message)) return true
    // A host name with several addresses fails with one error per address.
    if (Array.isArray(e.errors) && e.errors.some((x) => isDatabaseUnavailable(x))) return true
    e = e.cause as typeof e
  }
  return false
}
