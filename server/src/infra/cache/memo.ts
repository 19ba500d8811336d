/**
 * A small in-process map whose entries expire after `ttlMs`: for hot lookups (sessions, the
 * play context) that change rarely and are invalidated explicitly when they do. The TTL bounds
 * staleness when another replica made the change.
 */
export function createMemo<K, V>(ttlMs: number, maxEntries = 100_000) {
  const entries = new Map<K, { value: V; at: number }>()
  return {
    get(key: K): V | undefined {
      const entry = entries.get(key)
      if (!entry) return undefined
      if (Date.now() - entry.at > ttlMs) {
        entries.delete(key)
        return undefined
      }
      return entry.value
    },
    set(key: K, value: V) {
      // Crude bound: a full map starts over rather than growing without limit.
      if (entries.size >= maxEntries) entries.clear()
      entries.set(key, { value, at: Date.now() })
    },
    delete: (key: K) => entries.delete(key),
    deleteWhere(test: (key: K, value: V) => boolean) {
      for (const [k, e] of entries) if (test(k, e.value)) entries.delete(k)
    },
    clear: () => entries.clear(),
  }
}
