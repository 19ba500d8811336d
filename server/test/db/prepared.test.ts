import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../../src/db/index.ts'
import { createTestDatabase } from '../helpers/database.ts'

// Both databases keep each statement text prepared (planned once per connection): the answers
// must be those of a statement planned afresh, also after the statement failed or its table
// changed shape under it (a newer server's migration).
describe('statements prepared once per connection', () => {
  let database: Database
  beforeAll(async () => {
    database = await createTestDatabase()
  })
  afterAll(() => database.close())

  const rows = async (statement: ReturnType<typeof sql>) =>
    ((await database.db.execute(statement)) as unknown as { rows: Record<string, unknown>[] }).rows

  it('prepares a text once on a connection and answers each call with its own parameters', async () => {
    const text = 'select $1::int + 1 as v'
    const counted = await database.db.transaction(async (tx) => {
      // One transaction: one connection, whose prepared statements the view lists.
      for (const n of [1, 2, 3]) {
        const r = (await tx.execute(sql`select ${n}::int + 1 as v`)) as unknown as { rows: { v: number }[] }
        expect(r.rows).toEqual([{ v: n + 1 }])
      }
      const seen = (await tx.execute(
        sql`select count(*)::int n from pg_prepared_statements where statement = ${text}`,
      )) as unknown as { rows: { n: number }[] }
      return seen.rows[0]!.n
    })
    expect(counted).toBe(1)
  })

  it('answers a statement again after it failed', async () => {
    // Drizzle wraps the database's error ("Failed query: …"); PostgreSQL's words are its cause.
    const why = (e: unknown) => String((e as { cause?: unknown }).cause ?? e)
    const alone = await database.db.execute(sql`select 10 / ${0}::int as q`).catch((e: unknown) => e)
    expect(why(alone)).toMatch(/division by zero/)
    expect(await rows(sql`select 10 / ${5}::int as q`)).toEqual([{ q: 2 }])
    const failed = await database.db
      .transaction((tx) => tx.execute(sql`select 10 / ${0}::int as q`))
      .catch((e: unknown) => e)
    expect(why(failed)).toMatch(/division by zero/)
    expect(await rows(sql`select 10 / ${2}::int as q`)).toEqual([{ q: 5 }])
  })

  it('answers with the new shape once a table it reads has changed', async () => {
    await database.db.execute(sql`create table shape (id int)`)
    await database.db.execute(sql`insert into shape values (1)`)
    // Read on every pooled connection likely to serve the next one.
    for (let i = 0; i < 8; i++) expect(await rows(sql`select * from shape`)).toEqual([{ id: 1 }])
    await database.db.execute(sql`alter table shape add column note text default 'new'`)
    for (let i = 0; i < 8; i++) expect(await rows(sql`select * from shape`)).toEqual([{ id: 1, note: 'new' }])
  })
})
