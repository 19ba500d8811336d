import pg from 'pg'
import { type Database, openDatabase } from '../../src/db/index.ts'

/**
 * A fresh, migrated database for one test file: a new database on the PostgreSQL server named
 * by TEST_DATABASE_URL (dropped afterwards), or an in-memory PGlite when it is unset.
 */
export async function createTestDatabase(
  opts: {
    /** The PostgreSQL server to create the database on (TEST_DATABASE_URL by default). */
    server?: string
    /** An existing database to open instead (a second server on the same data); not dropped. */
    url?: string
  } = {},
): Promise<Database & { url?: string }> {
  if (opts.url) return { ...(await openDatabase({ url: opts.url, dataDir: null })), url: opts.url }
  const serverUrl = opts.server ?? process.env.TEST_DATABASE_URL
  if (!serverUrl) return openDatabase({ dataDir: null })

  const name = `pennant_t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const admin = new pg.Client({ connectionString: serverUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(serverUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ url: url.toString(), dataDir: null })
  return {
    ...database,
    url: url.toString(),
    async close() {
      await database.close()
      const cleanup = new pg.Client({ connectionString: serverUrl })
      await cleanup.connect()
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await cleanup.end()
    },
  }
}
