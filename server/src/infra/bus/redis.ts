import type { RedisConnections } from '../redis/index.ts'
import type { Bus, BusTopics, Topic } from './index.ts'
import { createMemoryBus } from './memory.ts'

/**
 * Topics about this server's own state: not sent to the others (each server builds its own
 * scoreboards and tells its own hub clients when they change).
 */
const LOCAL: ReadonlySet<Topic> = new Set<Topic>(['board.changed', 'live.resync'])

/** Messages kept while Redis is away, at most; beyond it the oldest go (the others re-sync). */
export const MAX_QUEUED = 10_000

type Message = { t: Topic; m: unknown }

/**
 * The bus across servers. A publish is delivered to this process's subscribers at once, as the
 * in-process bus does (so a server reads its own writes), and sent on one Redis channel; what
 * arrives from the other servers is delivered here in the order it was sent. A server skips
 * its own messages, so every subscriber hears each message exactly once. Messages published in
 * one turn of the event loop travel as one batch: a judged batch of hundreds of verdicts and
 * solves is one Redis message, not hundreds.
 *
 * Redis away: this server's own subscribers still hear everything it publishes (its players see
 * their notices and boards); what it would send waits in a bounded queue and goes out, in order,
 * once Redis is back. Whatever this server may have missed meanwhile (its subscription was
 * down) is made good when the subscription returns: it forgets what those messages could have
 * changed (boards reload, settings are read again) and publishes `live.resync`, on which the
 * hubs ask their clients to reconnect and read again.
 */
export function createRedisBus(
  redis: RedisConnections,
  onError: (err: unknown, topic: Topic) => void = () => {},
  log: { warn(msg: string): void } = { warn() {} },
): Bus {
  const { command, subscriber } = redis
  const local = createMemoryBus(onError)
  const channel = `${redis.prefix}bus`
  const receive = (ch: string, raw: string) => {
    if (ch !== channel) return
    let parsed: { o: string; b: Message[] }
    try {
      parsed = JSON.parse(raw)
    } catch (err) {
      return onError(err, channel as Topic)
    }
    if (parsed.o === redis.origin || !Array.isArray(parsed.b)) return
    for (const { t, m } of parsed.b) local.publish(t, m as BusTopics[typeof t])
  }

  // Batches not yet sent because Redis was away, oldest first (by `seq`, the order of sending).
  type Batch = { seq: number; messages: Message[] }
  const queued: Batch[] = []
  let queuedCount = 0
  let dropped = 0
  let seq = 0
  const enqueue = (b: Batch) => {
    let at = queued.length
    while (at > 0 && queued[at - 1]!.seq > b.seq) at--
    queued.splice(at, 0, b)
    queuedCount += b.messages.length
    while (queuedCount > MAX_QUEUED && queued.length > 1) {
      const gone = queued.shift()!
      queuedCount -= gone.messages.length
      dropped += gone.messages.length
    }
  }
  const post = (b: Batch) =>
    command.publish(channel, JSON.stringify({ o: redis.origin, b: b.messages })).catch((err: unknown) => {
      // Not written at all (the connection had just died, unnoticed): it waits for the next
      // connection. Any other failure may have reached Redis: not sent twice.
      if (err instanceof Error && err.message.includes("isn't writeable")) return enqueue(b)
      redis.failed(err)
      onError(err, b.messages[0]!.t)
    })
  const flush = () => {
    if (dropped)
      log.warn(
        `${dropped} live-update messages from while Redis was away were dropped (more than ${MAX_QUEUED}); the other servers' clients read again on re-sync`,
      )
    dropped = 0
    while (queued.length && command.status === 'ready') {
      const b = queued.shift()!
      queuedCount -= b.messages.length
      void post(b)
    }
  }
  let batch: Message[] = []
  const send = () => {
    if (!batch.length) return
    const sending = { seq: seq++, messages: batch }
    batch = []
    // Checked here, not left to the command to fail: a message is queued only when it surely
    // did not go (a timed-out PUBLISH may still have been delivered).
    if (command.status === 'ready' && !queued.length) return void post(sending)
    enqueue(sending)
    if (command.status === 'ready') flush()
  }
  command.on('ready', flush)

  subscriber.on('message', receive)
  const resync = () => {
    local.publish('cache.forget', { what: 'membership' })
    local.publish('settings.changed', {})
    local.publish('live.resync', {})
  }
  let closed = false
  const subscribe = () => subscriber.subscribe(channel)
  // Subscribed at once when Redis answers now; otherwise (the server started without Redis)
  // when it comes, and then there is catching up to do as after any reconnection.
  const initial = subscriber.status === 'ready' ? subscribe() : Promise.resolve(0)
  initial.catch((err: unknown) => onError(err, channel as Topic))
  const resubscribed = () => {
    // The subscription is back (ioredis also renews it; one more SUBSCRIBE says when it is).
    subscribe().then(
      () => {
        if (!closed) resync()
      },
      (err: unknown) => onError(err, channel as Topic),
    )
  }
  subscriber.on('ready', resubscribed)
  return {
    publish(topic, message) {
      local.publish(topic, message)
      if (LOCAL.has(topic)) return
      if (!batch.length) setImmediate(send)
      batch.push({ t: topic, m: message })
    },
    subscribe: local.subscribe,
    /** Resolves once the channel is subscribed (at once when Redis is away). */
    ready: () => initial.then(() => {}),
    async close() {
      closed = true
      send()
      command.off('ready', flush)
      subscriber.off('message', receive)
      subscriber.off('ready', resubscribed)
      if (subscriber.status === 'ready') await subscriber.unsubscribe(channel).catch(() => {})
      await local.close()
    },
  } as Bus
}
