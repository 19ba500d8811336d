import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '../../src/db/index.ts'
import { analyzeStale } from '../../src/db/statistics.ts'

// PGlite has no autovacuum: without these analyses its planner never learns how many rows a
// table holds or what its columns contain.
describe('planner statistics of the embedded database', () => {
  let dir: string
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pennant-stats-'))
  })
  afterAll(() => rm(dir, { recursive: true, force: true }))

  const one = async <T>(database: Database, statement: ReturnType<typeof sql>) =>
    ((await database.db.execute(statement)) as unknown as { rows: T[] }).rows[0]!
  const reltuples = (database: Database) =>
    one<{ n: number }>(database, sql`select reltuples::float8 n from pg_class where relname = 'users'`)
  /** 3 000 accounts, inserted as a contest would (the statistics' counters see them). */
  const fill = (database: Database, from: number) =>
    database.db.execute(sql`
      insert into users (id, user_name, normalized_user_name, email, normalized_email, password_hash)
      select gen_random_uuid(), 's' || i, 's' || i, 's' || i || '@stats.test', 's' || i || '@stats.test', 'x'
      from generate_series(${from}::int, ${from + 2999}::int) i`)

  it('analyses a table that changed, once, and a table never analysed when the server opens it', async () => {
    const database = await openDatabase({ dataDir: dir })
    try {
      expect(database.analyzeStale).toBeTypeOf('function')
      await fill(database, 1)
      expect((await reltuples(database)).n).toBe(-1)
      // The counters reach the statistics within a second (PostgreSQL flushes them at most that often).
      let analysed: string[] = []
      for (let i = 0; i < 30 && !analysed.includes('users'); i++) {
        // real wait: polling PGlite until its statistics counters are flushed.
        await new Promise((resolve) => setTimeout(resolve, 100))
        analysed = await database.analyzeStale!()
      }
      expect(analysed).toContain('users')
      expect((await reltuples(database)).n).toBe(3000)
      // Nothing changed since: nothing to do.
      expect(await analyzeStale(database.db)).not.toContain('users')
      // More rows, never analysed, when the server stops: the next start analyses them.
      await database.db.execute(sql`delete from pg_statistic where starelid = 'users'::regclass`)
      await database.db.execute(sql`update pg_class set reltuples = -1 where relname = 'users'`)
      await fill(database, 3001)
    } finally {
      await database.close()
    }
    const reopened = await openDatabase({ dataDir: dir })
    try {
      expect((await reltuples(reopened)).n).toBe(6000)
    } finally {
      await reopened.close()
    }
  })

  it('is left to autovacuum on PostgreSQL', async () => {
    const url = process.env.TEST_DATABASE_URL
    if (!url) return
    const database = await openDatabase({ url, dataDir: null })
    try {
      expect(database.analyzeStale).toBeUndefined()
    } finally {
      await database.close()
    }
  })
})
