import { readdirSync } from 'node:fs'
import path from 'node:path'
import pg from 'pg'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase } from '../../src/db/index.ts'
import { serverDir } from '../../src/paths.ts'

const serverUrl = process.env.TEST_DATABASE_URL
const name = `pennant_m_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`

async function admin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl })
  await client.connect()
  try {
    return await work(client)
  } finally {
    await client.end()
  }
}

afterAll(async () => {
  if (serverUrl) await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`))
})

describe.skipIf(!serverUrl)('migrations on PostgreSQL', () => {
  it('are applied once when several servers start on an empty database at the same moment', async () => {
    await admin((c) => c.query(`CREATE DATABASE ${name}`))
    const url = new URL(serverUrl!)
    url.pathname = `/${name}`
    // As a deployment's servers do on their first start: all at once, each applying what is missing.
    const opened = await Promise.allSettled(
      Array.from({ length: 4 }, () => openDatabase({ url: url.toString(), dataDir: null })),
    )
    const failures = opened.flatMap((o) => (o.status === 'rejected' ? [String(o.reason)] : []))
    for (const o of opened) if (o.status === 'fulfilled') await o.value.close()
    expect(failures).toEqual([])

    const journal = readdirSync(path.join(serverDir, 'src/db/migrations')).filter((f) => f.endsWith('.sql'))
    const client = new pg.Client({ connectionString: url.toString() })
    await client.connect()
    try {
      const applied = await client.query('select count(*)::int as n from drizzle.__drizzle_migrations')
      expect(applied.rows[0].n).toBe(journal.length)
      // The schema is whole: a table from the first migration and one from the last are there.
      const tables = await client.query(
        `select count(*)::int as n from pg_tables where schemaname = 'public'`,
      )
      expect(tables.rows[0].n).toBeGreaterThan(10)
    } finally {
      await client.end()
    }
  }, 60_000)
})
