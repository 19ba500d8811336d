import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from 'node:worker_threads'
import { DatabaseUnavailable } from './errors.ts'

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
  | { op: 'fault'; kind: Fault }

interface Reply {
  id: number
  result?: unknown
  error?: Record<string, unknown>
}

/** Ways the worker can be told to misbehave on the next statement of a transaction (tests, rehearsals). */
export type Fault = 'stale' | 'late' | 'exit'

/** What the thread reports; all optional. */
export interface PGliteEvents {
  /** The worker was lost (crash, kill, no answer); a new one is being started on the same files. */
  onCrash?: (err: Error) => void
  /** The new worker serves; `ms` since the old one was lost. */
  onRestart?: (info: { ms: number; restarts: number }) => void
  /** A reply for an earlier request was found and thrown away (never passed on). */
  onDiscarded?: (info: { id: number; expected: number }) => void
  /** No working database any more and none can be made: the caller should end the process. */
  onFatal?: (err: Error) => void
  /** A worker thread began to run, before it loads PGlite (Node has just set V8's flags again). */
  onThreadOnline?: () => void
}

export interface PGliteOptions extends PGliteEvents {
  /** `undefined`: in memory (lost with its worker, so a crash is fatal). */
  dataDir: string | undefined
  /** How long a statement inside a transaction may take before the worker is given up (default 30 s). */
  statementTimeoutMs?: number
  /** Accept `inject` and `kill` (tests; the server only with PENNANT_FAULT_INJECTION=1). */
  faults?: boolean
}

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

/** One worker and its two ports. When it fails it is never used again (see PGliteThread#lose). */
interface Link {
  worker: Worker
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>
  /** Statements inside an open transaction go this way: see #callInTransaction. */
  syncPort: MessagePort
  /** [0]: answers the worker has posted on syncPort (counted after posting); [1]: 1 once it is ending. */
  signal: Int32Array
  /** Set once the link cannot be trusted; everything sent on it is then refused. */
  failed?: Error
  exited: Promise<void>
}

const RESTARTS_PER_MINUTE = 5

/**
 * The embedded PGlite database running in a worker thread, behind the methods Drizzle calls on
 * a PGlite client. PostgreSQL in WebAssembly then no longer competes with the server's own
 * JavaScript for one core. Statements are queued by PGlite in the worker exactly as before
 * (one connection; a transaction holds it until its commit or rollback). Beginning a transaction
 * is awaited like any statement (it may wait for another transaction); the statements inside one
 * and its commit are waited for synchronously (#callInTransaction).
 *
 * Every answer carries the id of its request and is taken only by that request. When the worker
 * ends, fails or does not answer in time, everything waiting on it is refused with
 * DatabaseUnavailable (open transactions are lost, hence rolled back by PostgreSQL's recovery), a
 * new worker opens the same files, and statements sent meanwhile wait for it. In memory, or when
 * restarts fail or repeat too often, the thread reports onFatal and refuses everything.
 */
export class PGliteThread implements Statements {
  readonly #workerFile: string
  readonly #options: PGliteOptions
  #link: Link
  /** Set while a new worker is starting; statements wait for it. */
  #restarting: Promise<void> | undefined
  #fatal: Error | undefined
  #closing = false
  /** True while the current link is open and trusted; a loss then starts one restart. */
  #serving = false
  #next = 1
  #restarts: number[] = []
  #discarded = 0

  private constructor(workerFile: string, options: PGliteOptions) {
    this.#workerFile = workerFile
    this.#options = options
    this.#link = this.#spawn()
  }

  /**
   * Starts `pglite-worker.js` (its path given by the caller: this module may be bundled into a
   * chunk elsewhere) and waits until the database is open (`dataDir` undefined: in memory).
   */
  static async start(workerFile: string, options: PGliteOptions): Promise<PGliteThread> {
    const thread = new PGliteThread(workerFile, options)
    try {
      await thread.#opened(thread.#link)
    } catch (err) {
      await thread.#link.worker.terminate()
      throw err
    }
    thread.#serving = true
    return thread
  }

  #spawn(): Link {
    const { port1, port2 } = new MessageChannel()
    const signal = new Int32Array(new SharedArrayBuffer(8))
    const worker = new Worker(this.#workerFile, {
      workerData: { dataDir: this.#options.dataDir, syncPort: port2, signal, faults: !!this.#options.faults },
      transferList: [port2],
    })
    // Only a waiting statement keeps the process alive (see #send), as an in-process PGlite did.
    worker.unref()
    const { onThreadOnline } = this.#options
    if (onThreadOnline) worker.once('online', onThreadOnline)
    const link: Link = { worker, pending: new Map(), syncPort: port1, signal, exited: Promise.resolve() }
    worker.on('message', (m: Reply) => {
      const waiting = link.pending.get(m.id)
      if (!waiting) return
      link.pending.delete(m.id)
      if (link.pending.size === 0 && !this.#closing) worker.unref()
      if (m.error) waiting.reject(Object.assign(new Error(String(m.error.message)), m.error))
      else waiting.resolve(m.result)
    })
    worker.on('error', (err) => this.#lose(link, err))
    link.exited = new Promise((resolve) =>
      worker.once('exit', (code) => {
        this.#lose(link, new Error(`the PGlite thread stopped (exit code ${code})`))
        resolve()
      }),
    )
    return link
  }

  /** Waits for the worker's "ready" (id 0), or its failure to open the database. */
  #opened(link: Link): Promise<unknown> {
    return new Promise((resolve, reject) => {
      link.pending.set(0, { resolve, reject })
      link.worker.ref()
    })
  }

  /**
   * The link can no longer be trusted: refuse what waits on it, stop its worker, and start a new
   * one (unless closing). Synchronous up to the restart, so nothing is sent on it afterwards.
   */
  #lose(link: Link, cause: Error): void {
    if (link.failed) return
    link.failed = cause
    const refusal = new DatabaseUnavailable(`the database thread was lost: ${cause.message}`, cause)
    for (const waiting of link.pending.values()) waiting.reject(refusal)
    link.pending.clear()
    link.syncPort.close()
    void link.worker.terminate()
    if (this.#closing || !this.#serving || link !== this.#link) return
    this.#serving = false
    this.#options.onCrash?.(cause)
    const now = Date.now()
    this.#restarts = [...this.#restarts.filter((t) => now - t < 60_000), now]
    const hopeless =
      this.#options.dataDir === undefined
        ? 'the in-memory PGlite database was lost with its thread'
        : this.#restarts.length > RESTARTS_PER_MINUTE
          ? `the PGlite thread was lost ${this.#restarts.length} times in a minute`
          : undefined
    if (hopeless) {
      this.#die(new Error(hopeless, { cause }))
      return
    }
    this.#restarting = this.#restart(link, now).finally(() => {
      this.#restarting = undefined
    })
  }

  async #restart(old: Link, since: number): Promise<void> {
    // The old worker must be gone before another opens the same files.
    await old.exited
    for (let attempt = 1; ; attempt++) {
      if (this.#closing) return
      const link = this.#spawn()
      this.#link = link
      try {
        await this.#opened(link)
        this.#serving = true
        this.#options.onRestart?.({ ms: Date.now() - since, restarts: this.#restarts.length })
        return
      } catch (err) {
        this.#lose(link, err as Error)
        await link.exited
        if (attempt >= 3)
          return this.#die(new Error('the PGlite thread could not be restarted', { cause: err }))
        await new Promise((r) => setTimeout(r, 500 * attempt))
      }
    }
  }

  #die(err: Error): void {
    this.#fatal = err
    this.#options.onFatal?.(err)
  }

  /** The link to send on, once any restart has finished. */
  async #usable(): Promise<Link> {
    while (this.#restarting) await this.#restarting
    if (this.#fatal) throw new DatabaseUnavailable(this.#fatal.message, this.#fatal)
    if (this.#link.failed) throw new DatabaseUnavailable(this.#link.failed.message, this.#link.failed)
    return this.#link
  }

  #send<T>(link: Link, message: Message, id = this.#next++): Promise<T> {
    if (link.failed) return Promise.reject(new DatabaseUnavailable(link.failed.message, link.failed))
    return new Promise<T>((resolve, reject) => {
      // Posted first: a message that cannot be copied (DataCloneError) rejects and leaves nothing waiting.
      link.worker.postMessage({ id, ...message })
      if (link.pending.size === 0) link.worker.ref()
      link.pending.set(id, { resolve: resolve as (v: unknown) => void, reject })
    })
  }

  async #call<T>(message: Message, id?: number): Promise<T> {
    return this.#send(await this.#usable(), message, id)
  }

  /**
   * A statement of an open transaction, waited for synchronously. The transaction holds PGlite's
   * only connection, so while its statements went through the event loop (worker → main thread →
   * worker, each behind whatever requests were queued) the database sat idle and every other
   * statement waited. The worker runs it at once (nothing else can hold the connection), so the
   * wait is the statement's own time, as when PGlite ran on this thread.
   *
   * Only the answer carrying this request's id is taken: others (left by an earlier request) are
   * thrown away, a wake-up with nothing to read waits on. A worker that ends, or that has not
   * answered by the deadline, is lost (#lose), and the statement refused.
   */
  #callInTransaction<T>(link: Link, message: Message): Promise<T> {
    if (link.failed || link !== this.#link) {
      const cause = link.failed ?? new Error('the database thread was restarted')
      return Promise.reject(new DatabaseUnavailable(`the transaction was lost: ${cause.message}`, cause))
    }
    const id = this.#next++
    const timeout = this.#options.statementTimeoutMs ?? 30_000
    const deadline = performance.now() + timeout
    try {
      link.syncPort.postMessage({ id, ...message })
    } catch (err) {
      return Promise.reject(err)
    }
    for (;;) {
      // Read the count first: an answer posted after the port is read below changes it, so the
      // wait returns at once.
      const seen = Atomics.load(link.signal, 0)
      for (let got = receiveMessageOnPort(link.syncPort); got; got = receiveMessageOnPort(link.syncPort)) {
        const reply = got.message as Reply
        if (reply.id === id) {
          if (reply.error)
            return Promise.reject(Object.assign(new Error(String(reply.error.message)), reply.error))
          return Promise.resolve(reply.result as T)
        }
        this.#discarded++
        this.#options.onDiscarded?.({ id: reply.id, expected: id })
      }
      let lost: Error | undefined
      if (Atomics.load(link.signal, 1) === 1) lost = new Error('the PGlite thread ended during a statement')
      else {
        const left = deadline - performance.now()
        if (left <= 0) lost = new Error(`the PGlite thread did not answer a statement in ${timeout} ms`)
        else Atomics.wait(link.signal, 0, seen, left)
      }
      if (lost) {
        this.#lose(link, lost)
        return Promise.reject(new DatabaseUnavailable(lost.message, lost))
      }
    }
  }

  query(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results> {
    return this.#call({ op: 'query', sql, params, rowMode: options?.rowMode, oids: oidsOf(options?.parsers) })
  }

  exec(sql: string): Promise<Results[]> {
    return this.#call({ op: 'exec', sql })
  }

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  async transaction<T>(work: (tx: Statements) => Promise<T>): Promise<T> {
    // The transaction is known by the id of the message that began it, on the link it began on.
    const id = this.#next++
    const link = await this.#usable()
    await this.#send(link, { op: 'begin' }, id)
    const tx: Statements = {
      query: (sql, params, options) =>
        this.#callInTransaction(link, {
          op: 'query',
          sql,
          params,
          rowMode: options?.rowMode,
          oids: oidsOf(options?.parsers),
          tx: id,
        }),
      exec: (sql) => this.#callInTransaction(link, { op: 'exec', sql, tx: id }),
    }
    let result: T
    try {
      result = await work(tx)
    } catch (err) {
      // On a lost link there is nothing to roll back here: the transaction died with the worker.
      if (!link.failed)
        await this.#callInTransaction(link, { op: 'end', tx: id, commit: false }).catch(() => {})
      throw err
    }
    await this.#callInTransaction(link, { op: 'end', tx: id, commit: true })
    return result
  }

  /** Answers thrown away since the start because they were not for the request reading them. */
  discarded(): number {
    return this.#discarded
  }

  /** Fault injection: the worker answers the next statement of a transaction wrongly (see Fault). */
  async inject(kind: Fault): Promise<void> {
    if (!this.#options.faults) throw new Error('fault injection is off')
    await this.#call({ op: 'fault', kind })
  }

  /**
   * Fault injection: stops the worker at once, as a crash would (the server's SIGUSR2 with
   * PENNANT_FAULT_INJECTION=1). Resolves when the new worker serves.
   */
  async kill(): Promise<void> {
    if (!this.#options.faults) throw new Error('fault injection is off')
    const link = await this.#usable()
    // Lost at once (not when 'exit' arrives): a statement sent meanwhile must not wait for an answer.
    this.#lose(link, new Error('the PGlite thread was killed on purpose (fault injection)'))
    await link.exited
    while (this.#restarting) await this.#restarting
  }

  async close(): Promise<void> {
    // Held until the thread has ended, so the process does not exit before the files are closed.
    this.#closing = true
    const restarting = this.#restarting
    if (restarting) await restarting
    const link = this.#link
    link.worker.ref()
    if (!link.failed) await this.#send(link, { op: 'close' }).catch(() => {})
    await link.exited
  }
}
