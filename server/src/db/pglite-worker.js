// The embedded PGlite database on a thread of its own: PostgreSQL's work (WebAssembly) then runs
// on a second core instead of sharing the server's thread. The main thread talks to it through
// `pglite-thread.ts`. Plain JavaScript, because Node 20 starts a worker only from a file it can
// run as it is, and the same file serves the sources (tests) and the build (`dist/`).
import fs from 'node:fs'
import v8 from 'node:v8'
import { parentPort, workerData } from 'node:worker_threads'
import { PGlite, parse, protocol } from '@electric-sql/pglite'

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

// PostgreSQL's buffer pool: 16 MB instead of its default 128 MB. PGlite sets the pool up inside
// its WebAssembly memory, which never shrinks; at the default, starting and reading a 6 000-team
// game's board kept ~120 MiB more resident, with no measurable gain in verdicts per second
// (docs/developers/benchmarks.md, "Start-up and memory"). Pages not in the pool are read from
// the data folder's files, which the kernel caches.
const SHARED_BUFFERS = '16MB'

// PostgreSQL's WebAssembly runs as V8's baseline compiler (Liftoff) made it, never recompiled by
// the optimising one (TurboFan). Recompiling the hot functions cost each start ~2.5 s of CPU on
// background threads and kept ~60-90 MiB more resident (its code and the compilers' spent
// memory); without it a verdict costs 15-50 % more CPU once warm. The embedded database is for
// contests a small machine can hold, where memory and the start matter more than the last
// verdicts per second (docs/developers/embedded-database.md, "Settings and the first start").
// Set before PGlite compiles its module. V8's flags are the process's: the only other
// WebAssembly is the HTTP parser of Node's own fetch (outgoing requests: webhooks, OIDC), a
// small module whose speed does not show.
v8.setFlagsFromString('--liftoff-only')
// (One options object: with a first argument that is not a folder, PGlite ignores the second.)
const db = new PGlite({
  dataDir: workerData.dataDir ?? undefined,
  startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`],
})
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
 * Statements by their text, each prepared once under a name of its own (least recently used
 * first). PGlite's `query` parses and plans every statement again; planning is most of the cost
 * of the larger ones (the judge's first statement: about 10 ms to plan, under 1 ms to run), and
 * a named statement lets PostgreSQL keep its plan. Bounded: texts built with a varying number of
 * parameters (`in ($1, $2, …)`) would otherwise pile up.
 * @type {Map<string, { name: string, types: number[] }>}
 */
const prepared = new Map()
const MAX_PREPARED = 300
const RESULT_TYPE_CHANGED = /cached plan must not change result type/
let namedSoFar = 0

/** Sends protocol messages without a sync; throws PostgreSQL's error as PGlite's `query` does. */
const send = (/** @type {Uint8Array} */ message) => db.execProtocolStream(message, { syncToFs: false })

/**
 * What PGlite's `query` does (parse, describe, bind, describe, execute, sync: one statement's
 * extended-protocol exchange), with the parse and first describe done once per text.
 * @param {string} sql @param {unknown[]} params @param {{ rowMode?: 'array' | 'object', parsers?: Record<number, (v: string) => unknown> }} options
 * @param {boolean} inTransaction
 */
async function preparedQuery(sql, params, options, inTransaction) {
  /** @type {any[]} */
  const messages = []
  let entry = prepared.get(sql)
  try {
    if (entry) {
      prepared.delete(sql)
      prepared.set(sql, entry)
    } else {
      const name = `pennant_${++namedSoFar}`
      await send(protocol.serialize.parse({ name, text: sql, types: [] }))
      const types = parse.parseDescribeStatementResults(
        await send(protocol.serialize.describe({ type: 'S', name })),
      )
      entry = { name, types }
      prepared.set(sql, entry)
      if (prepared.size > MAX_PREPARED) {
        const [oldest, old] = /** @type {[string, { name: string }]} */ (prepared.entries().next().value)
        prepared.delete(oldest)
        await send(protocol.serialize.close({ type: 'S', name: old.name }))
      }
    }
    const types = entry.types
    const values = params.map((value, i) => {
      if (value === null || value === undefined) return null
      const serializer = db.serializers[/** @type {number} */ (types[i])]
      return serializer ? serializer(value) : String(value)
    })
    messages.push(...(await send(protocol.serialize.bind({ statement: entry.name, values }))))
    messages.push(...(await send(protocol.serialize.describe({ type: 'P' }))))
    messages.push(...(await send(protocol.serialize.execute({}))))
  } catch (err) {
    // A statement that failed is prepared again next time (a table it reads may have changed).
    // Closed after the sync: until then PostgreSQL skips every message after an error.
    await send(protocol.serialize.sync())
    if (entry && prepared.get(sql) === entry) {
      prepared.delete(sql)
      await send(protocol.serialize.close({ type: 'S', name: entry.name })).catch(() => {})
      await send(protocol.serialize.sync()).catch(() => {})
    }
    throw err
  }
  messages.push(...(await send(protocol.serialize.sync())))
  if (!inTransaction) await db.syncToFs()
  return parse.parseResults(messages, db.parsers, options)[0]
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
      const options = { rowMode: m.rowMode, parsers: parsers(m.oids) }
      const params = m.params ?? []
      // As PGlite's own `query`: a statement of an open transaction takes the connection between
      // that transaction's statements; any other waits for open transactions to end.
      const run = () => preparedQuery(/** @type {string} */ (m.sql), params, options, m.tx !== undefined)
      let r
      if (m.tx === undefined) {
        const alone = () => db._runExclusiveTransaction(() => db._runExclusiveQuery(run))
        // A table changed under a prepared statement (`select *` after a column was added):
        // PostgreSQL refuses the old statement once; it was dropped, so the second try prepares
        // it again. (Inside a transaction the error has ended the transaction: it is passed on.)
        r = await alone().catch((err) =>
          RESULT_TYPE_CHANGED.test(String(err?.message)) ? alone() : Promise.reject(err),
        )
      } else {
        target(m.tx)
        r = await db._runExclusiveQuery(run)
      }
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

/**
 * The answer to one message, as plain data tagged with the message's id. Never throws: the main
 * thread must always receive exactly one answer for each message it sent.
 * @param {any} m
 */
async function answer(m) {
  try {
    return { id: m.id, result: await handle(m) }
  } catch (err) {
    return { id: m.id, error: plain(err) }
  }
}

/** Posts an answer; one that cannot be copied across threads becomes an error answer instead. */
function post(/** @type {import('node:worker_threads').MessagePort} */ to, /** @type {any} */ reply) {
  try {
    to.postMessage(reply)
  } catch (err) {
    to.postMessage({ id: reply.id, error: plain(err) })
  }
}

port.on('message', async (m) => {
  if (m.op === 'fault') return fault(m)
  post(port, await answer(m))
  if (m.op === 'close') {
    port.close()
    syncPort.close()
  }
})

// Statements of an open transaction, for a main thread that waits on `signal` (see
// #callInTransaction in pglite-thread.ts). signal[0] counts the answers posted on `syncPort`:
// each answer is posted first, then counted, so a waiter woken by the count finds it on the port.
// signal[1] is 1 once this thread is ending.
const { syncPort, signal } = workerData
function counted() {
  Atomics.add(signal, 0, 1)
  Atomics.notify(signal, 0)
}
syncPort.on('message', async (/** @type {any} */ m) => {
  const reply = await answer(m)
  const injected = faults.shift()
  if (injected === 'exit') process.exit(70)
  if (injected === 'stale') {
    // A leftover answer to an earlier message sits before the real one.
    post(syncPort, { id: m.id - 1, result: { rows: [{ stale: true }], fields: [] } })
    counted()
  }
  if (injected === 'late') {
    // The waiter is woken with nothing to read; the answer comes afterwards.
    counted()
    await new Promise((r) => setTimeout(r, 100))
  }
  post(syncPort, reply)
  counted()
})

// A main thread waiting for an answer is woken also when this thread ends, however it ends
// (a terminate() from the main thread runs no JavaScript here: that side knows already).
process.on('exit', () => {
  Atomics.store(signal, 1, 1)
  counted()
})

/**
 * Fault injection for tests and rehearsals (only when the main thread enables it): the next
 * statement of a transaction is answered wrongly in the way named: 'stale' (an earlier id's
 * answer first), 'late' (a wake-up before the answer exists), 'exit' (this thread ends instead).
 * @type {string[]}
 */
const faults = []
function fault(/** @type {any} */ m) {
  if (!workerData.faults) post(port, { id: m.id, error: { message: 'fault injection is off' } })
  else {
    faults.push(m.kind)
    post(port, { id: m.id, result: null })
  }
}

db.waitReady.then(
  () => port.postMessage({ id: 0, result: null }),
  (err) => port.postMessage({ id: 0, error: plain(err) }),
)
