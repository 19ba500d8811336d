import type { Cache } from './index.ts'

/** The embedded cache: a Map with lazy expiry plus a periodic sweep so it cannot grow unbounded. */
export function createMemoryCache(opts: { sweepMs?: number } = {}): Cache {
  const entries = new Map<string, { value: string; expiresAt: number }>()
  const sweep = setInterval(() => {
    const now = Date.now()
    for (const [key, entry] of entries) if (entry.expiresAt <= now) entries.delete(key)
  }, opts.sweepMs ?? 60_000)
  sweep.unref()

  const live = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= Date.now()) {
      entries.delete(key)
      return undefined
    }
    return entry
  }

  return {
    async get(key) {
      return live(key)?.value ?? null
    },
    async set(key, value, ttlMs) {
      entries.set(key, { value, expiresAt: Date.now() + ttlMs })
    },
    async take(key) {
      return live(key) !== undefined && entries.delete(key)
    },
    async close() {
      clearInterval(sweep)
      entries.clear()
    },
  }
}
