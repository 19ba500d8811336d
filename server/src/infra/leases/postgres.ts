import pg from 'pg'
import type { Leases } from './index.ts'

/** The first half of every lease's advisory-lock key ("PNNT"), so ours do not meet others'. */
export const NAMESPACE = 0x504e4e54 | 0

/** A stable 32-bit key for a lease name. */
export function keyOf(name: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < name.length; i++) h = Math.imul(h ^ name.charCodeAt(i), 0x01000193)
  return h | 0
}

/**
 * Leases as PostgreSQL session advisory locks on one connection of their own. The database
 * ends the session, and so frees the locks, as soon as the holder's process dies (its socket
 * closes) or its connection is lost; a holder that lost its connection notices at its next
 * `hold` and takes the lease again only if nobody else did meanwhile. No clocks, no expiry.
 */
export function createPostgresLeases(opts: {
  url: string
  onChange?: (name: string, held: boolean) => void
}): Leases {
  let client: pg.Client | null = null
  let connecting: Promise<pg.Client> | null = null
  const held = new Set<string>()
  let released = false

  const lost = () => {
    client = null
    for (const name of held) opts.onChange?.(name, false)
    held.clear()
  }

  async function connection(): Promise<pg.Client> {
    if (client) return client
    connecting ??= (async () => {
      const c = new pg.Client({
        connectionString: opts.url,
        application_name: 'pennant-leases',
        // A database that does not answer fails the hold (tried again at the next one), never hangs it.
        connectionTimeoutMillis: 5000,
      })
      c.on('error', () => {
        if (client === c) lost()
      })
      c.on('end', () => {
        if (client === c) lost()
      })
      await c.connect()
      client = c
      return c
    })().finally(() => {
      connecting = null
    })
    return connecting
  }

  // One question at a time on the lease connection (pg queues them anyway; this keeps the
  // bookkeeping of `held` in step with the answers).
  let chain: Promise<unknown> = Promise.resolve()
  const serial = <T>(work: () => Promise<T>): Promise<T> => {
    const next = chain.then(work, work)
    chain = next.catch(() => {})
    return next
  }

  return {
    hold: (name) =>
      serial(async () => {
        if (released) return false
        try {
          const c = await connection()
          if (held.has(name)) {
            // The session is alive, so its locks are: one cheap round trip says so.
            await c.query('select 1')
            return true
          }
          const { rows } = await c.query<{ ok: boolean }>('select pg_try_advisory_lock($1, $2) ok', [
            NAMESPACE,
            keyOf(name),
          ])
          if (rows[0]?.ok) {
            held.add(name)
            opts.onChange?.(name, true)
          }
          return rows[0]?.ok === true
        } catch {
          // The connection failed: whatever it held is gone (the database frees it too).
          const c = client
          lost()
          await c?.end().catch(() => {})
          return false
        }
      }),

    release: () =>
      serial(async () => {
        released = true
        const c = client
        if (!c) return
        client = null
        for (const name of held) opts.onChange?.(name, false)
        held.clear()
        // Ending the session frees every advisory lock it holds.
        await c.end().catch(() => {})
      }),
  }
}
