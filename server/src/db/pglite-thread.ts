import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads'

/** What a statement gives back, as PGlite's `query` shapes it. */
interface Results {
  rows: unknown[]
  fields: { name: string; dataTypeID: number }[]
  affectedRows?: number
}
type Parsers = Record<number, (value: string) => unknown>
interface QueryOptions {
  rowMode?: 'array' | 'object'
  parsers?: Parsers
}
/** The part of PGlite's client that `drizzle-orm/pglite` uses, inside a transaction too. */
interface Statements {
  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results>
  exec(sql: string): Promise<Results[]>
}

type Message =
  | {
      op: 'query'
      sql: string
      params?: unknown[]
      rowMode?: 'array' | 'object'
      oids?: number[]
      tx?: number
    }
  | { op: 'exec'; sql: string; tx?: number }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'close' }

/**
 * Type ids of a query's parsers. They cannot cross to the worker, which keeps these types' values
 * as PostgreSQL's text; so only parsers that return their input are accepted (Drizzle's are).
 */
const parserIds = new WeakMap<Parsers, number[]>()
function oidsOf(parsers: Parsers | undefined): number[] | undefined {
  if (!parsers) return undefined
  let oids = parserIds.get(parsers)
  if (!oids) {
    oids = Object.entries(parsers).map(([oid, parse]) => {
      if (parse('2000-01-01') !== '2000-01-01')
        throw new Error(`PGlite thread: parser for type ${oid} unsupported`)
      return Number(oid)
    })
    parserIds.set(parsers, oids)
  }
  return oids
}

/**
 * The embedded PGlite database running in a worker thread, behind the methods Drizzle calls on
 * a PGlite client. PostgreSQL in WebAssembly then no longer competes with the server's own
 * JavaScript for one core. Statements are queued by PGlite in the worker exactly as before
 * (one connection; a transaction holds it until its commit or rollback). Beginning a transaction
 * is awaited like any statement (it may wait for another transaction); the statements inside one
 * and its commit are waited for synchronously (#callInTransaction).
 */
export class PGliteThread implements Statements {
  readonly #worker: Worker
  readonly #pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  #next = 1
  #broken: Error | undefined
  #closing = false
  readonly #exited: Promise<void>
  /** Statements inside an open transaction go this way: see #callInTransaction. */
  readonly #syncPort: MessagePort
  readonly #signal = new Int32Array(new SharedArrayBuffer(4))

  private constructor(workerFile: string, dataDir: string | undefined, onCrash?: (err: Error) => void) {
    const { port1, port2 } = new MessageChannel()
    this.#syncPort = port1
    this.#worker = new Worker(workerFile, {
      workerData: { dataDir, syncPort: port2, signal: this.#signal },
      transferList: [port2],
    })
    // Only a waiting statement keeps the process alive (see #call), as an in-process PGlite did.
    this.#worker.unref()
    this.#worker.on('message', (m: { id: number; result?: unknown; error?: Record<string, unknown> }) => {
      const waiting = this.#pending.get(m.id)
      if (!waiting) return
      this.#pending.delete(m.id)
      if (this.#pending.size === 0 && !this.#closing) this.#worker.unref()
      if (m.error) waiting.reject(Object.assign(new Error(String(m.error.message)), m.error))
      else waiting.resolve(m.result)
    })
    const broken = (err: Error) => {
      if (this.#broken) return
      this.#broken = err
      for (const waiting of this.#pending.values()) waiting.reject(err)
      this.#pending.clear()
      if (!this.#closing) onCrash?.(err)
    }
    this.#worker.on('error', broken)
    this.#exited = new Promise((resolve) =>
      this.#worker.once('exit', () => {
        broken(new Error('the PGlite thread has stopped'))
        resolve()
      }),
    )
  }

  /**
   * Starts `pglite-worker.js` (its path given by the caller: this module may be bundled into a
   * chunk elsewhere) and waits until the database is open (`dataDir` undefined: in memory).
   */
  static async start(
    workerFile: string,
    dataDir: string | undefined,
    onCrash?: (err: Error) => void,
  ): Promise<PGliteThread> {
    const thread = new PGliteThread(workerFile, dataDir, onCrash)
    // id 0 is the worker's "ready", or its failure to open the database.
    await new Promise((resolve, reject) => {
      thread.#pending.set(0, { resolve, reject })
      thread.#worker.ref()
    })
    return thread
  }

  #call<T>(message: Message, id = this.#next++): Promise<T> {
    if (this.#broken) return Promise.reject(this.#broken)
    return new Promise<T>((resolve, reject) => {
      if (this.#pending.size === 0) this.#worker.ref()
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
      this.#worker.postMessage({ id, ...message })
    })
  }

  /**
   * A statement of an open transaction, waited for synchronously. The transaction holds PGlite's
   * only connection, so while its statements went through the event loop (worker → main thread →
   * worker, each behind whatever requests were queued) the database sat idle and every other
   * statement waited. The worker runs it at once (nothing else can hold the connection), so the
   * wait is the statement's own time, as when PGlite ran on this thread.
   */
  #callInTransaction<T>(message: Message): Promise<T> {
    // 2: the worker has stopped (it says so on its way out, as this thread cannot hear 'exit' while it waits).
    if (Atomics.load(this.#signal, 0) === 2) this.#broken ??= new Error('the PGlite thread has stopped')
    if (this.#broken) return Promise.reject(this.#broken)
    const id = this.#next++
    Atomics.store(this.#signal, 0, 0)
    this.#syncPort.postMessage({ id, ...message })
    Atomics.wait(this.#signal, 0, 0)
    const reply = receiveMessageOnPort(this.#syncPort)?.message as
      | { result?: T; error?: Record<string, unknown> }
      | undefined
    if (!reply) return Promise.reject(new Error('the PGlite thread did not answer'))
    if (reply.error) return Promise.reject(Object.assign(new Error(String(reply.error.message)), reply.error))
    return Promise.resolve(reply.result as T)
  }

  query(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<Results> {
    const message: Message = {
      op: 'query',
      sql,
      params,
      rowMode: options?.rowMode,
      oids: oidsOf(options?.parsers),
      tx,
    }
    return tx === undefined ? this.#call(message) : this.#callInTransaction(message)
  }

  exec(sql: string, tx?: number): Promise<Results[]> {
    if (tx !== undefined) return this.#callInTransaction({ op: 'exec', sql, tx })
    return this.#call({ op: 'exec', sql })
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    // The transaction is known by the id of the message that began it.
    const id = this.#next++
    await this.#call({ op: 'begin' }, id)
    const tx: Statements = {
      query: (sql, params, options) => this.query(sql, params, options, id),
      exec: (sql) => this.exec(sql, id),
    }
    let result: T
    try {
      result = await work(tx)
    } catch (err) {
      await this.#callInTransaction({ op: 'end', tx: id, commit: false }).catch(() => {})
      throw err
    }
    await this.#callInTransaction({ op: 'end', tx: id, commit: true })
    return result
  }

  async close(): Promise<void> {
    // Held until the thread has ended, so the process does not exit before the files are closed.
    this.#closing = true
    this.#worker.ref()
    if (!this.#broken) await this.#call({ op: 'close' })
    await this.#exited
  }
}
