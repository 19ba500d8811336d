import type { Cache, State } from 'swr'

/**
 * The client cache, kept across visits (seed section 9): an in-memory map that SWR uses,
 * saved gzip-compressed to IndexedDB about 3 s after a change and when the page is hidden or
 * closed; if IndexedDB fails, to localStorage (base64 of the same bytes). An older,
 * uncompressed localStorage copy is migrated on first start. Logout and "clear cache" wipe it.
 */
const DB_NAME = 'pennant-cache'
const STORE = 'swr'
const RECORD = 'cache-map'
const FALLBACK_KEY = 'pennant-cache-gz'
const LEGACY_KEY = 'pennant-cache'
const SAVE_DELAY = 3000

type Entry = [string, State]
const map = new Map<string, State>()
let timer: ReturnType<typeof setTimeout> | undefined
let dirty = false

async function gzip(text: string): Promise<Uint8Array> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))
  return new Uint8Array(await new Response(stream).arrayBuffer())
}

async function gunzip(bytes: Uint8Array): Promise<string> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'))
  return new Response(stream).text()
}

const toBase64 = (bytes: Uint8Array) => btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))

function openDb(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB_NAME, 1)
    request.onupgradeneeded = () => request.result.createObjectStore(STORE)
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })
}

async function idb<T>(mode: IDBTransactionMode, run: (store: IDBObjectStore) => IDBRequest): Promise<T> {
  const db = await openDb()
  try {
    return await new Promise<T>((resolve, reject) => {
      const request = run(db.transaction(STORE, mode).objectStore(STORE))
      request.onsuccess = () => resolve(request.result as T)
      request.onerror = () => reject(request.error)
    })
  } finally {
    db.close()
  }
}

/** Only settled data is worth keeping; errors and in-flight flags are not. */
/**
 * Admin lists hold other people's details (e-mails, real names, addresses, logs): they stay in
 * memory and are never written to the browser's storage.
 */
export const isPrivate = (key: string) => key.startsWith('/api/admin/') || key.startsWith('/api/tokens')

function snapshot(): Entry[] {
  const entries: Entry[] = []
  for (const [key, state] of map)
    if (state.data !== undefined && !key.startsWith('$') && !isPrivate(key))
      entries.push([key, { data: state.data }])
  return entries
}

async function save() {
  if (!dirty) return
  dirty = false
  const bytes = await gzip(JSON.stringify(snapshot()))
  try {
    await idb('readwrite', (s) => s.put(bytes, RECORD))
    localStorage.removeItem(FALLBACK_KEY)
  } catch {
    try {
      localStorage.setItem(FALLBACK_KEY, toBase64(bytes))
    } catch {
      // Storage full or forbidden: the cache simply does not survive this visit.
    }
  }
}

function schedule() {
  dirty = true
  clearTimeout(timer)
  timer = setTimeout(() => void save(), SAVE_DELAY)
}

async function load(): Promise<Entry[]> {
  const legacy = localStorage.getItem(LEGACY_KEY)
  if (legacy) {
    localStorage.removeItem(LEGACY_KEY)
    try {
      const parsed = JSON.parse(legacy) as Entry[]
      if (Array.isArray(parsed)) {
        dirty = true
        return parsed
      }
    } catch {}
  }
  try {
    const bytes = await idb<Uint8Array | undefined>('readonly', (s) => s.get(RECORD))
    if (bytes) return JSON.parse(await gunzip(bytes)) as Entry[]
  } catch {}
  const fallback = localStorage.getItem(FALLBACK_KEY)
  if (fallback) return JSON.parse(await gunzip(fromBase64(fallback))) as Entry[]
  return []
}

/** Fills the cache from the last visit; keys already fetched in this visit win. */
export async function hydrateCache(): Promise<void> {
  try {
    for (const [key, state] of await load()) if (!map.has(key)) map.set(key, state)
    if (dirty) schedule()
  } catch {
    // A corrupt copy is dropped; it is rewritten at the next save.
  }
}

/** Puts an answer fetched in this visit in the cache, as SWR would once a hook had it. */
export function primeCache(key: string, data: unknown): void {
  map.set(key, { data })
  schedule()
}

/** The SWR cache provider: the shared map with writes that schedule a save. */
export function cacheProvider(): Cache {
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void save()
  })
  addEventListener('pagehide', () => void save())
  return {
    get: (key) => map.get(key),
    set: (key, value) => {
      map.set(key, value)
      schedule()
    },
    delete: (key) => {
      map.delete(key)
      schedule()
    },
    keys: () => map.keys(),
  }
}

/** Forgets everything, in memory and on disk (logout, "clear local cache"). */
export async function clearCache(): Promise<void> {
  clearTimeout(timer)
  dirty = false
  map.clear()
  localStorage.removeItem(FALLBACK_KEY)
  localStorage.removeItem(LEGACY_KEY)
  try {
    await idb('readwrite', (s) => s.delete(RECORD))
  } catch {}
}
