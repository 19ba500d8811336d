import type { Bus, BusTopics, Topic } from './index.ts'

type Handler = (message: never) => void

/**
 * The bus within one process. Delivery is synchronous, in subscription order; a handler that
 * throws is reported to `onError` and does not stop the others.
 */
export function createMemoryBus(onError: (err: unknown, topic: Topic) => void = () => {}): Bus {
  const handlers = new Map<Topic, Set<Handler>>()
  return {
    publish(topic, message) {
      const set = handlers.get(topic)
      if (!set) return
      for (const handler of set) {
        try {
          ;(handler as (m: BusTopics[typeof topic]) => void)(message)
        } catch (err) {
          onError(err, topic)
        }
      }
    },
    subscribe(topic, handler) {
      const set = handlers.get(topic) ?? new Set<Handler>()
      handlers.set(topic, set)
      set.add(handler as Handler)
      return () => {
        set.delete(handler as Handler)
      }
    },
    async close() {
      handlers.clear()
    },
  }
}
