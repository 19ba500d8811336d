import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isUniqueViolation } from '../../src/db/errors.ts'
import { type Database, openDatabase } from '../../src/db/index.ts'

// The embedded database as the server opens it without DATABASE_URL: PGlite on its own thread.
describe('PGlite on a worker thread', () => {
  let database: Database
  beforeAll(async () => {
    database = await openDatabase({ dataDir: null })
    await database.db.execute(sql`create table t (id int primary key, note text)`)
  })
  afterAll(() => database.close())

  const count = async () =>
    ((await database.db.execute(sql`select count(*)::int n from t`)) as unknown as { rows: { n: number }[] })
      .rows[0]!.n

  it('keeps the main thread free while the database works', async () => {
    let turns = 0
    let working = true
    const spin = () => {
      if (!working) return
      turns++
      setImmediate(spin)
    }
    setImmediate(spin)
    const before = database.queries()
    await database.db.execute(sql`select count(*) from generate_series(1, 3000000)`)
    working = false
    // In the server's thread the statement ran as one synchronous WebAssembly call: no turn of the
    // event loop (no request served) until it ended.
    expect(turns).toBeGreaterThan(50)
    expect(database.queries()).toBe(before + 1)
  })

  it('gives back PostgreSQL error fields across the thread', async () => {
    await database.db.execute(sql`insert into t values (1, 'one')`)
    const err = await database.db.execute(sql`insert into t values (1, 'again')`).catch((e: unknown) => e)
    expect(isUniqueViolation(err, 't_pkey')).toBe(true)
  })

  it('commits a transaction that ends and undoes one that throws, savepoints included', async () => {
    const start = await count()
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into t values (2, 'two')`)
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into t values (3, 'three')`)
          throw new Error('undo the savepoint')
        })
        .catch(() => {})
    })
    expect(await count()).toBe(start + 1)
    const failed = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into t values (4, 'four')`)
        await tx.execute(sql`insert into t values (4, 'four again')`)
      })
      .catch((e: unknown) => e)
    expect(isUniqueViolation(failed)).toBe(true)
    expect(await count()).toBe(start + 1)
    // The connection is free again for statements outside a transaction.
    await database.db.execute(sql`insert into t values (5, 'five')`)
    expect(await count()).toBe(start + 2)
  })

  it('queues a statement sent while a transaction is open until that transaction ends', async () => {
    let release!: () => void
    const held = new Promise<void>((r) => {
      release = r
    })
    const tx = database.db.transaction(async (t) => {
      await t.execute(sql`update t set note = 'held' where id = 1`)
      await held
    })
    // Give the transaction its BEGIN and first statement, then read from outside it.
    await new Promise((r) => setTimeout(r, 50))
    const read = database.db.execute(sql`select note from t where id = 1`)
    release()
    await tx
    const rows = (await read) as unknown as { rows: { note: string }[] }
    expect(rows.rows[0]!.note).toBe('held')
  })
})
