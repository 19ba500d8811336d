import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'

type Log = { info(msg: string): void; warn(msg: string): void }

/** How long a command may take before it fails (then the caller falls back to its own state). */
export const COMMAND_TIMEOUT_MS = 250

/**
 * The one place Redis connections are made. Commands share one connection; pub/sub needs its
 * own (a subscribed connection can do nothing else). Every key and channel starts with `prefix`,
 * so several deployments (or parallel tests) can share one Redis.
 *
 * Redis is never waited for: a command fails within `COMMAND_TIMEOUT_MS`, or at once while the
 * connection is down (no offline queue), and its caller carries on with this server's own state
 * (its rate limits, cache, live updates). The connections retry in the background for ever;
 * `up` and `onChange` tell the users when Redis is away and when it is back.
 */
export interface RedisConnections {
  /** Commands (cache, rate-limit counters, publishing). */
  command: Redis
  /** Subscriptions only. */
  subscriber: Redis
  prefix: string
  /** This process's id on the backplane: a server skips what it published itself. */
  origin: string
  /** `host:port` (never the password), for log lines. */
  where: string
  /** Both connections are ready: the servers share state. False: each server is on its own. */
  readonly up: boolean
  /**
   * Whether to send a command now: connected, and no command timed out in the last second (a
   * Redis that accepts connections but does not answer costs a request one timeout, not one per
   * command).
   */
  usable(): boolean
  /** Tells the connections a command failed (a timeout makes `usable` false for a second). */
  failed(err: unknown): void
  /** Hears every change of `up`. Returns the function that stops listening. */
  onChange(listener: (up: boolean) => void): () => void
  close(): Promise<void>
}

export interface RedisOptions {
  prefix?: string
  log?: Log
  /** How long the start waits for Redis before going on without it (it keeps trying). */
  startWaitMs?: number
  commandTimeoutMs?: number
}

/** After a command timed out, commands go to this server's own state for this long. */
const PAUSE_AFTER_TIMEOUT_MS = 1000

/** Retry after 100 ms, 200 ms, … at most every 2 s, for ever. */
const retryStrategy = (times: number) => Math.min(100 * times, 2000)

export async function connectRedis(url: string, opts: RedisOptions = {}): Promise<RedisConnections> {
  const log = opts.log ?? { info() {}, warn() {} }
  const base = {
    connectionName: 'pennant',
    retryStrategy,
    // A host that drops packets would otherwise hold each attempt for 10 s.
    connectTimeout: 2000,
  }
  const command = new Redis(url, {
    ...base,
    // Fail at once while disconnected and after a short time when Redis is slow: a request
    // answers from this server's own state instead of waiting for Redis to return.
    enableOfflineQueue: false,
    commandTimeout: opts.commandTimeoutMs ?? COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
  })
  // Only SUBSCRIBE goes on this one: while it is down the subscription waits for the
  // reconnection (no request waits on it).
  const subscriber = new Redis(url, { ...base, maxRetriesPerRequest: null })
  const where = `${command.options.host}:${command.options.port}`

  const listeners = new Set<(up: boolean) => void>()
  let up = false
  let started = false
  let closing = false
  let lastError = ''
  const update = () => {
    const now = command.status === 'ready' && subscriber.status === 'ready'
    if (now === up || closing) return
    up = now
    const reason = lastError || 'connection lost'
    if (up) lastError = ''
    if (started) {
      if (up)
        log.info(
          `Redis at ${where} answers again: the servers share the cache, rate limits and live updates again`,
        )
      else
        log.warn(
          `Redis at ${where} (REDIS_URL) is unreachable (${reason}): this server uses its own rate limits, cache and live updates until it returns; retrying in the background`,
        )
    }
    for (const listener of listeners) listener(up)
  }
  for (const conn of [command, subscriber]) {
    conn.on('ready', update)
    conn.on('close', update)
    conn.on('end', update)
    // Without a listener ioredis prints a stack for every failed attempt. The outage is logged
    // once by `update`; the reason is kept for that line.
    conn.on('error', (err: Error) => {
      lastError = err.message
      update()
    })
  }

  // The start waits a little for Redis, not for ever.
  const bothReady = Promise.all(
    [command, subscriber].map(
      (conn) =>
        new Promise<void>((resolve) => (conn.status === 'ready' ? resolve() : conn.once('ready', resolve))),
    ),
  )
  let timer: NodeJS.Timeout | undefined
  await Promise.race([
    bothReady,
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, opts.startWaitMs ?? 2000)
      timer.unref()
    }),
  ])
  clearTimeout(timer)
  started = true
  update()
  if (!up)
    log.warn(
      `Redis at ${where} (REDIS_URL) does not answer${lastError ? ` (${lastError})` : ''}: starting without it; this server uses its own rate limits, cache and live updates and keeps retrying in the background`,
    )

  let pausedUntil = 0
  return {
    command,
    subscriber,
    prefix: opts.prefix ?? 'pennant:',
    origin: randomBytes(8).toString('hex'),
    where,
    get up() {
      return up
    },
    usable: () => command.status === 'ready' && Date.now() >= pausedUntil,
    failed(err) {
      if (err instanceof Error && err.message.includes('timed out'))
        pausedUntil = Date.now() + PAUSE_AFTER_TIMEOUT_MS
    },
    onChange(listener) {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    },
    async close() {
      closing = true
      listeners.clear()
      // QUIT needs a connection; a disconnected one just stops retrying.
      await Promise.allSettled(
        [command, subscriber].map((conn) => (conn.status === 'ready' ? conn.quit() : conn.disconnect())),
      )
    },
  }
}
