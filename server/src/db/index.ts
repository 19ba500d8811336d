import { createHash } from 'node:crypto'
import { existsSync } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import path from 'node:path'
import type { PGlite } from '@electric-sql/pglite'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { RUNTIME } from '../paths.ts'
import { isDatabaseUnavailable } from './errors.ts'
import type { PGliteEvents, PGliteThread } from './pglite-thread.ts'
import * as schema from './schema.ts'
import { analyzeStale } from './statistics.ts'

/** One Drizzle handle type for both drivers, so services never know which one runs. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>
/** A database handle or an open transaction: query functions accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db

export interface Database {
  db: Db
  kind: 'postgres' | 'pglite'
  /** Statements sent through `db` so far: tests count what a request costs with it. */
  queries(): number
  /** PostgreSQL's connection pool now (`/metrics`); PGlite has one connection (in its worker thread), no pool. */
  pool?(): { total: number; idle: number; waiting: number; max: number }
  /** The embedded database's thread (PGlite only): fault injection and its counters. */
  pglite?: PGliteThread
  /**
   * PGlite only: analyses the tables whose statistics are missing or stale (it has no
   * autovacuum; see statistics.ts), returning their names. PostgreSQL's autovacuum does this.
   */
  analyzeStale?(): Promise<string[]>
  close(): Promise<void>
}

/**
 * The longest a query waits for a pool connection, whether a new one is being opened or all 32
 * are busy. Long enough for a loaded server's queue, short enough that nobody waits long on a
 * database that does not answer.
 */
export const CONNECT_TIMEOUT_MS = 5000

/** How long a plain read waits before its one retry when the database was unreachable. */
export const READ_RETRY_MS = 300
const PLAIN_READ = /^\s*select\b/i
const NOT_PLAIN =
  /\bfor\s+(update|no\s+key\s+update|share|key\s+share)\b|nextval|setval|advisory|pg_notify|set_config/i

/**
 * A single `select` outside a transaction (what Drizzle sends through `pool.query`) that failed
 * because the database was unreachable is sent once more after `READ_RETRY_MS`: a restart
 * takes a few hundred milliseconds, so most reads caught in it answer 200 instead of 503. Only
 * reads that change nothing are retried (no locking clause, no sequence, no advisory lock),
 * and not after a connect timeout, which has waited long enough already.
 */
function retryReadsOnce(pool: import('pg').Pool) {
  const query = (config: unknown, values: unknown) => onPooledClient(pool, config, values)
  const retried = (config: unknown, values: unknown) => {
    const text = typeof config === 'string' ? config : (config as { text?: unknown } | null)?.text
    const first = query(config, values)
    if (typeof text !== 'string' || !PLAIN_READ.test(text) || NOT_PLAIN.test(text)) return first
    return first.catch(async (err: unknown) => {
      if (!isDatabaseUnavailable(err) || /timeout exceeded/i.test(String((err as Error)?.message))) throw err
      await new Promise((resolve) => setTimeout(resolve, READ_RETRY_MS))
      return query(config, values)
    })
  }
  const poolQuery = pool.query.bind(pool) as (...args: unknown[]) => unknown
  pool.query = ((config: unknown, values?: unknown, callback?: unknown) =>
    // The callback form (not used by Drizzle) is left as it is.
    typeof values === 'function' || typeof callback === 'function'
      ? poolQuery(config, values, callback)
      : retried(config, values)) as typeof pool.query
}

/**
 * One statement on a pooled connection, as `pool.query` runs it, except that the connection is
 * taken first. A connection node-postgres opens for a `pool.query` keeps that call's callback
 * for as long as it lives (a closure of its connect handlers shares it), and through it the
 * call's result: a board loaded at start-up on a fresh connection (megabytes of solves) stayed
 * in memory until the connection closed. Taken this way, the connection keeps only itself.
 */
async function onPooledClient(pool: import('pg').Pool, config: unknown, values: unknown): Promise<unknown> {
  const client = await pool.connect()
  return new Promise((resolve, reject) => {
    let released = false
    // As pool.query does: a connection that fails (or a statement that fails) is not reused.
    const release = (err?: Error) => {
      if (released) return
      released = true
      client.removeListener('error', onError)
      client.release(err)
    }
    const onError = (err: Error) => {
      release(err)
      reject(err)
    }
    client.once('error', onError)
    try {
      // The callback form: `nameStatements` sends a statement refused for a changed table once more.
      ;(client.query as (...args: unknown[]) => unknown)(
        config,
        values,
        (err: Error | null, res: unknown) => {
          release(err ?? undefined)
          if (err) reject(err)
          else resolve(res)
        },
      )
    } catch (err) {
      release(err as Error)
      reject(err)
    }
  })
}

/** Statement texts each connection keeps prepared, first come (then it sends the rest unnamed). */
const NAMED_PER_CONNECTION = 200
const RESULT_TYPE_CHANGED = /cached plan must not change result type/

/**
 * Sends a connection's statements under a name derived from their text, so PostgreSQL parses
 * and plans each text once per connection instead of on every call (node-postgres skips the
 * parse of a name it has seen). Planning was most of the cost of the judge's larger statements,
 * and it is paid per batch: a busy contest's many small batches paid it again and again. At most
 * `NAMED_PER_CONNECTION` texts per connection (texts with a varying number of parameters would
 * pile up). A text refused because its table changed shape (a newer server migrated it) is sent
 * unnamed from then on, on that connection; outside a transaction it is sent again at once.
 */
function nameStatements(client: import('pg').PoolClient) {
  /** Text → its statement's name (hashed once per text, not on every call). */
  const named = new Map<string, string>()
  const unnamed = new Set<string>()
  const query = client.query.bind(client) as (...args: unknown[]) => unknown
  client.query = ((config: unknown, ...rest: unknown[]) => {
    const c = config as { text?: unknown; name?: unknown; submit?: unknown } | null
    if (!c || typeof c !== 'object' || typeof c.text !== 'string' || c.name || c.submit)
      return query(config, ...rest)
    const text = c.text
    if (unnamed.has(text) || (!named.has(text) && named.size >= NAMED_PER_CONNECTION))
      return query(config, ...rest)
    let name = named.get(text)
    if (!name) {
      name = `pennant_${createHash('sha1').update(text).digest('base64url')}`
      named.set(text, name)
    }
    const changed = (err: unknown) => {
      if (!RESULT_TYPE_CHANGED.test(String((err as Error | null)?.message))) return false
      named.delete(text)
      unnamed.add(text)
      return true
    }
    // The pool calls with a callback (pool.query: one statement on an idle connection, so it
    // is sent once more unnamed); a checked-out client's callers await, maybe in a transaction
    // the error has ended: the error is theirs, the next call goes unnamed.
    const last = rest.at(-1)
    if (typeof last === 'function') {
      const done = last as (e: unknown, r: unknown) => void
      rest[rest.length - 1] = (err: unknown, res: unknown) => {
        if (err && changed(err)) query(config, ...rest.slice(0, -1), done)
        else done(err, res)
      }
    }
    const result = query({ ...c, name }, ...rest)
    if (result instanceof Promise) result.catch(changed)
    return result
  }) as typeof client.query
}

const migrationsFolder = RUNTIME.migrations
/** The advisory lock key servers hold while they migrate (any fixed number of our own). */
const MIGRATION_LOCK = 0x70656e6e // "penn"

/**
 * Opens PostgreSQL when a URL is given, otherwise the embedded PGlite database
 * (`dataDir/db`, or in memory when `dataDir` is null), and applies the migrations.
 */
export async function openDatabase(opts: {
  url?: string
  dataDir: string | null
  onIdleError?: (err: Error) => void
  /** PGlite only: its thread's crashes, restarts and discarded answers, and a loss it cannot repair. */
  pglite?: PGliteEvents & { faults?: boolean; statementTimeoutMs?: number }
  /** How long a query waits for a connection (default `CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number
}): Promise<Database> {
  let sent = 0
  const logger = {
    logQuery() {
      sent++
    },
  }
  const queries = () => sent
  if (opts.url) {
    const pg = await import('pg')
    const { drizzle } = await import('drizzle-orm/node-postgres')
    const { migrate } = await import('drizzle-orm/node-postgres/migrator')
    const pool = new pg.default.Pool({
      connectionString: opts.url,
      max: 32,
      // A bounded wait: with the database down or unreachable a request fails (503) after this
      // long instead of hanging; a refused connection (restart) fails at once anyway.
      connectionTimeoutMillis: opts.connectTimeoutMs ?? CONNECT_TIMEOUT_MS,
      // A dropped peer (failover, cut network) is noticed by the kernel, not only at the next query.
      keepAlive: true,
    })
    // An idle connection dropped by the server (restart, failover) must not crash the process;
    // the pool replaces it on the next query.
    pool.on('error', (err) => opts.onIdleError?.(err))
    // A connection cut while checked out but between statements (inside a transaction, say)
    // emits `error` on its client, where the pool listens only while the client is idle: with
    // no listener that crashed the process at every PostgreSQL restart. The statement in flight,
    // or the next one, fails on its own (503), and the pool drops the broken client on release.
    pool.on('connect', (client) => {
      client.on('error', () => {})
      nameStatements(client)
    })
    retryReadsOnce(pool)
    const db = drizzle(pool, { schema, logger })
    // Servers starting together on one database take turns: one applies what is missing, the
    // others then find nothing to do. Without the lock they raced on the same DDL and failed.
    // A session lock on its own connection, so it goes with that connection if the process dies.
    const holder = await pool.connect()
    try {
      await holder.query('select pg_advisory_lock($1)', [MIGRATION_LOCK])
      await migrate(drizzle(holder, { schema }), { migrationsFolder })
    } finally {
      // A connection that cannot unlock (a failed migration left it broken) is closed instead,
      // which lets go of the lock all the same.
      const unlocked = await holder.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).then(
        () => true,
        () => false,
      )
      holder.release(!unlocked)
    }
    const stats = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max ?? 10,
    })
    return { db: db as unknown as Db, kind: 'postgres', queries, pool: stats, close: () => pool.end() }
  }
  const { PGliteThread } = await import('./pglite-thread.ts')
  const { drizzle } = await import('drizzle-orm/pglite')
  const { migrate } = await import('drizzle-orm/pglite/migrator')
  let dir: string | undefined
  if (opts.dataDir) {
    dir = path.join(opts.dataDir, 'db')
    await mkdir(dir, { recursive: true })
  }
  // A first start on this folder: PGlite creates the database there (initdb), which leaves
  // ~400 MiB of spent buffers in its thread's heap that V8 did not collect while the server was
  // idle (a first `npm start` sat at 700–800 MiB for minutes). That thread creates the database
  // and ends, taking its heap with it; the server's thread opens the database afresh.
  if (dir && !existsSync(path.join(dir, 'PG_VERSION')))
    await (await PGliteThread.start(RUNTIME.pgliteWorker, { dataDir: dir })).close()
  // PGlite runs on a worker thread (see pglite-thread.ts), so the database's work and the
  // server's JavaScript use two cores; Drizzle sees the PGlite methods it calls.
  const client = await PGliteThread.start(RUNTIME.pgliteWorker, {
    dataDir: dir,
    onCrash: opts.onIdleError,
    ...opts.pglite,
  })
  const db = drizzle(client as unknown as PGlite, { schema, logger })
  await migrate(db, { migrationsFolder })
  // Before serving: tables that hold rows but never had statistics (PGlite never analysed one
  // before this) get them, so the first boards and pages are planned from what is there.
  const analyze = () => analyzeStale(db as unknown as Db)
  await analyze()
  return {
    db: db as unknown as Db,
    kind: 'pglite',
    queries,
    pglite: client,
    analyzeStale: analyze,
    close: () => client.close(),
  }
}
