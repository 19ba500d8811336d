import type { RedisConnections } from '../redis/index.ts'
import type { Bus, BusTopics, Topic } from './index.ts'
import { createMemoryBus } from './memory.ts'

/**
 * Topics about this server's own state: not sent to the others (each server builds its own
 * scoreboards and tells its own hub clients when they change).
 */
const LOCAL: ReadonlySet<Topic> = new Set<Topic>(['board.changed'])

/**
 * The bus across servers. A publish is delivered to this process's subscribers at once, as the
 * in-process bus does (so a server reads its own writes), and sent on one Redis channel; what
 * arrives from the other servers is delivered here in the order it was sent. A server skips
 * its own messages, so every subscriber hears each message exactly once. Messages published in
 * one turn of the event loop travel as one batch: a judged batch of hundreds of verdicts and
 * solves is one Redis message, not hundreds.
 */
export function createRedisBus(
  redis: RedisConnections,
  onError: (err: unknown, topic: Topic) => void = () => {},
): Bus {
  const local = createMemoryBus(onError)
  const channel = `${redis.prefix}bus`
  const receive = (ch: string, raw: string) => {
    if (ch !== channel) return
    let parsed: { o: string; b: { t: Topic; m: unknown }[] }
    try {
      parsed = JSON.parse(raw)
    } catch (err) {
      return onError(err, channel as Topic)
    }
    if (parsed.o === redis.origin || !Array.isArray(parsed.b)) return
    for (const { t, m } of parsed.b) local.publish(t, m as BusTopics[typeof t])
  }
  let batch: { t: Topic; m: unknown }[] = []
  const send = () => {
    if (!batch.length) return
    const sending = batch
    batch = []
    redis.command
      .publish(channel, JSON.stringify({ o: redis.origin, b: sending }))
      .catch((err: unknown) => onError(err, sending[0]!.t))
  }
  redis.subscriber.on('message', receive)
  // Messages sent while the subscription was down are lost: after a reconnect, this server
  // forgets what they might have changed (boards reload, settings are read again).
  let connections = redis.subscriber.status === 'ready' ? 1 : 0
  const resubscribed = () => {
    if (connections++ === 0) return
    local.publish('cache.forget', { what: 'membership' })
    local.publish('settings.changed', {})
  }
  redis.subscriber.on('ready', resubscribed)
  const subscribed = redis.subscriber.subscribe(channel)
  subscribed.catch((err: unknown) => onError(err, channel as Topic))
  return {
    publish(topic, message) {
      local.publish(topic, message)
      if (LOCAL.has(topic)) return
      if (!batch.length) setImmediate(send)
      batch.push({ t: topic, m: message })
    },
    subscribe: local.subscribe,
    /** Resolves once the channel is subscribed (messages published before are not heard). */
    ready: () => subscribed.then(() => {}),
    async close() {
      send()
      redis.subscriber.off('message', receive)
      redis.subscriber.off('ready', resubscribed)
      await redis.subscriber.unsubscribe(channel).catch(() => {})
      await local.close()
    },
  } as Bus
}
