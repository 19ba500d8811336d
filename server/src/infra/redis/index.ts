import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'

/**
 * The one place Redis connections are made. Commands share one connection; pub/sub needs its
 * own (a subscribed connection can do nothing else). Every key and channel starts with `prefix`,
 * so several deployments (or parallel tests) can share one Redis.
 */
export interface RedisConnections {
  /** Commands (cache, rate-limit counters, publishing). */
  command: Redis
  /** Subscriptions only. */
  subscriber: Redis
  prefix: string
  /** This process's id on the backplane: a server skips what it published itself. */
  origin: string
  close(): Promise<void>
}

export async function connectRedis(url: string, opts: { prefix?: string } = {}): Promise<RedisConnections> {
  const make = () =>
    new Redis(url, {
      // Fail commands while disconnected instead of queueing them without bound: a request then
      // answers an error instead of hanging until Redis returns.
      maxRetriesPerRequest: 2,
      lazyConnect: true,
      connectionName: 'pennant',
    })
  const command = make()
  const subscriber = make()
  await Promise.all([command.connect(), subscriber.connect()])
  return {
    command,
    subscriber,
    prefix: opts.prefix ?? 'pennant:',
    origin: randomBytes(8).toString('hex'),
    async close() {
      await Promise.allSettled([command.quit(), subscriber.quit()])
    },
  }
}
