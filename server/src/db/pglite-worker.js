// The embedded PGlite database on a thread of its own: PostgreSQL's work (WebAssembly) then runs
// on a second core instead of sharing the server's thread. The main thread talks to it through
// `pglite-thread.ts`. Plain JavaScript, because Node 20 starts a worker only from a file it can
// run as it is, and the same file serves the sources (tests) and the build (`dist/`).
import fs from 'node:fs'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite } from '@electric-sql/pglite'

// PGlite's file system layer gives every file it creates mode 0666 with an explicit chmod, past
// the process umask. The database is the server user's alone: group and other bits are dropped
// from every mode set on this thread (only PGlite uses the file system here; each thread has
// its own `fs` object, so the rest of the server is untouched).
const OTHERS = 0o077
for (const name of /** @type {const} */ (['chmodSync', 'fchmodSync', 'lchmodSync'])) {
  const original = /** @type {(target: unknown, mode: number) => void} */ (fs[name])
  if (typeof original !== 'function') continue
  // @ts-expect-error: same signature, narrower modes
  fs[name] = (/** @type {unknown} */ target, /** @type {number | string} */ mode) =>
    original(target, (typeof mode === 'string' ? Number.parseInt(mode, 8) : mode) & ~OTHERS)
}

const db = new PGlite(workerData.dataDir ?? undefined)
const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort)

// Parsers are functions and cannot cross threads; the main thread sends the type ids whose
// values should stay the text PostgreSQL sent (all Drizzle asks for), and they are made here.
const asText = (/** @type {string} */ value) => value
/** @type {Map<string, Record<number, (value: string) => string>>} */
const parserSets = new Map()
function parsers(/** @type {number[] | undefined} */ oids) {
  if (!oids?.length) return undefined
  const key = oids.join(',')
  let set = parserSets.get(key)
  if (!set) {
    set = Object.fromEntries(oids.map((oid) => [oid, asText]))
    parserSets.set(key, set)
  }
  return set
}

/**
 * Open transactions by id. PGlite's `transaction` holds its connection until the callback's
 * promise settles, so each one waits here for the main thread's commit or rollback; other
 * statements queue inside PGlite meanwhile, as they did when it ran on the main thread.
 * @type {Map<number, { tx?: any, commit?: () => void, rollback?: (e: unknown) => void, done?: Promise<unknown> }>}
 */
const open = new Map()
const ROLLBACK = Symbol('rollback')

function begin(/** @type {number} */ id) {
  return new Promise((started, failed) => {
    /** @type {{ tx?: any, commit?: () => void, rollback?: (e: unknown) => void, done?: Promise<unknown> }} */
    const entry = {}
    open.set(id, entry)
    entry.done = db.transaction(
      (tx) =>
        new Promise((commit, rollback) => {
          Object.assign(entry, { tx, commit, rollback })
          started(null)
        }),
    )
    entry.done.catch((err) => {
      if (!entry.tx) {
        open.delete(id)
        failed(err)
      }
    })
  })
}

async function end(/** @type {number} */ tx, /** @type {boolean} */ commit) {
  const entry = open.get(tx)
  if (!entry?.done) throw new Error(`no open transaction ${tx}`)
  open.delete(tx)
  if (commit) entry.commit?.()
  else entry.rollback?.(ROLLBACK)
  try {
    await entry.done
  } catch (err) {
    if (err !== ROLLBACK) throw err
  }
  return null
}

/** The target of a statement: the open transaction it belongs to, or the database. */
function target(/** @type {number | undefined} */ tx) {
  if (tx === undefined) return db
  const entry = open.get(tx)
  if (!entry?.tx) throw new Error(`no open transaction ${tx}`)
  return entry.tx
}

/** An error as plain data: PostgreSQL's fields (`code`, `constraint`, `detail`…) survive the trip. */
function plain(/** @type {any} */ err) {
  /** @type {Record<string, unknown>} */
  const out = { message: String(err?.message ?? err), name: err?.name ?? 'Error' }
  if (err && typeof err === 'object') {
    for (const [key, value] of Object.entries(err)) {
      if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value
    }
  }
  return out
}

/**
 * @param {{ id: number, op: 'query' | 'exec' | 'begin' | 'end' | 'close', tx?: number, sql?: string,
 *   params?: unknown[], rowMode?: 'array' | 'object', oids?: number[], commit?: boolean }} m
 */
async function handle(m) {
  switch (m.op) {
    case 'query': {
      const r = await target(m.tx).query(m.sql, m.params, { rowMode: m.rowMode, parsers: parsers(m.oids) })
      return { rows: r.rows, fields: r.fields, affectedRows: r.affectedRows }
    }
    case 'exec': {
      const results = await target(m.tx).exec(m.sql)
      return results.map((/** @type {any} */ r) => ({
        rows: r.rows,
        fields: r.fields,
        affectedRows: r.affectedRows,
      }))
    }
    case 'begin':
      return begin(m.id)
    case 'end':
      return end(/** @type {number} */ (m.tx), Boolean(m.commit))
    case 'close':
      await db.close()
      return null
  }
}

port.on('message', (m) => {
  handle(m).then(
    (result) => {
      port.postMessage({ id: m.id, result })
      if (m.op === 'close') {
        port.close()
        syncPort.close()
      }
    },
    (err) => port.postMessage({ id: m.id, error: plain(err) }),
  )
})

// Statements of an open transaction, for a main thread that waits on `signal` (see
// #callInTransaction in pglite-thread.ts): the answer is posted, then the waiter woken.
const { syncPort, signal } = workerData
syncPort.on('message', (/** @type {any} */ m) => {
  const reply = (/** @type {object} */ answer) => {
    syncPort.postMessage(answer)
    Atomics.store(signal, 0, 1)
    Atomics.notify(signal, 0)
  }
  handle(m).then(
    (result) => reply({ id: m.id, result }),
    (err) => reply({ id: m.id, error: plain(err) }),
  )
})

// A main thread waiting for an answer is woken also when this thread ends, however it ends.
process.on('exit', () => {
  Atomics.store(signal, 0, 2)
  Atomics.notify(signal, 0)
})

db.waitReady.then(
  () => port.postMessage({ id: 0, result: null }),
  (err) => port.postMessage({ id: 0, error: plain(err) }),
)
