import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { sql } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { isDatabaseUnavailable, isUniqueViolation } from '../../src/db/errors.ts'
import { type Database, openDatabase } from '../../src/db/index.ts'
import { posts } from '../../src/db/schema.ts'

// The embedded database as the server opens it without DATABASE_URL: PGlite on its own thread.
describe('PGlite on a worker thread', () => {
  let database: Database
  const fatal: Error[] = []
  beforeAll(async () => {
    database = await openDatabase({ dataDir: null, pglite: { faults: true, onFatal: (e) => fatal.push(e) } })
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

  it("runs with a 16 MB buffer pool, not PostgreSQL's 128 MB (memory that WebAssembly never gives back)", async () => {
    const shown = (await database.db.execute(sql`show shared_buffers`)) as unknown as {
      rows: { shared_buffers: string }[]
    }
    expect(shown.rows[0]!.shared_buffers).toBe('16MB')
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
    // real wait: the worker thread begins the transaction
    await new Promise((r) => setTimeout(r, 50))
    const read = database.db.execute(sql`select note from t where id = 1`)
    release()
    await tx
    const rows = (await read) as unknown as { rows: { note: string }[] }
    expect(rows.rows[0]!.note).toBe('held')
  })

  it('refuses a parameter that cannot cross to the thread, and answers the next statements right', async () => {
    const thread = database.pglite!
    const notCopyable = [() => 1]
    await expect(thread.query('select $1::text as v', notCopyable)).rejects.toThrow(/could not be cloned/)
    const inTx = await thread
      .transaction(async (tx) => {
        await expect(tx.query('select $1::text as v', notCopyable)).rejects.toThrow(/could not be cloned/)
        return (await tx.query('select $1::text as v', ['in the transaction'])).rows
      })
      .catch((e: unknown) => e)
    expect(inTx).toEqual([{ v: 'in the transaction' }])
    expect((await thread.query('select $1::text as v', ['after'])).rows).toEqual([{ v: 'after' }])
  })

  const preparedAs = async (text: string) =>
    (
      await database.pglite!.query(
        'select count(*)::int n from pg_prepared_statements where statement = $1',
        [text],
      )
    ).rows[0] as { n: number }

  it('prepares a statement once and answers it from its plan every time after', async () => {
    const text = 'select $1::int + 1 as v, $2::text as w'
    for (const n of [1, 2, 3])
      expect((await database.pglite!.query(text, [n, `n${n}`])).rows).toEqual([{ v: n + 1, w: `n${n}` }])
    await database.db.transaction(async (tx) => {
      const inTx = (await tx.execute(sql.raw(`select 41 + 1 as v`))) as unknown as { rows: unknown[] }
      expect(inTx.rows).toEqual([{ v: 42 }])
    })
    expect(await preparedAs(text)).toEqual({ n: 1 })
    expect(await preparedAs('select 41 + 1 as v')).toEqual({ n: 1 })
  })

  it('keeps a bounded number of prepared statements, and still answers those it let go', async () => {
    for (let i = 0; i < 320; i++) {
      const rows = (await database.pglite!.query(`select ${i} as v, $1::text as w`, ['x'])).rows
      expect(rows).toEqual([{ v: i, w: 'x' }])
    }
    const { rows } = await database.pglite!.query('select count(*)::int n from pg_prepared_statements')
    expect((rows[0] as { n: number }).n).toBeLessThanOrEqual(300)
    expect(await preparedAs('select 0 as v, $1::text as w')).toEqual({ n: 0 })
    expect((await database.pglite!.query('select 0 as v, $1::text as w', ['again'])).rows).toEqual([
      { v: 0, w: 'again' },
    ])
  })

  it('answers a statement again after it failed, and after its table changed shape', async () => {
    const divide = 'select 10 / $1::int as q'
    await expect(database.pglite!.query(divide, [0])).rejects.toThrow(/division by zero/)
    expect((await database.pglite!.query(divide, [5])).rows).toEqual([{ q: 2 }])
    const failed = await database.pglite!.transaction((tx) => tx.query(divide, [0])).catch((e: unknown) => e)
    expect(String(failed)).toMatch(/division by zero/)
    expect((await database.pglite!.query(divide, [2])).rows).toEqual([{ q: 5 }])
    expect(await preparedAs(divide)).toEqual({ n: 1 })
    await database.db.execute(sql`create table shape (id int)`)
    await database.db.execute(sql`insert into shape values (1)`)
    expect((await database.pglite!.query('select * from shape')).rows).toEqual([{ id: 1 }])
    await database.db.execute(sql`alter table shape add column note text default 'new'`)
    expect((await database.pglite!.query('select * from shape')).rows).toEqual([{ id: 1, note: 'new' }])
  })

  // Last in this block: it ends this database.
  it('in memory, a lost thread cannot be replaced: everything is refused from then on, never answered wrongly', async () => {
    await database.pglite!.kill()
    expect(fatal.map((e) => e.message)).toEqual(['the in-memory PGlite database was lost with its thread'])
    const err = await database.db.execute(sql`select 1`).catch((e: unknown) => e)
    expect(isDatabaseUnavailable(err)).toBe(true)
    const tx = await database.db.transaction(async (t) => t.execute(sql`select 1`)).catch((e: unknown) => e)
    expect(isDatabaseUnavailable(tx)).toBe(true)
  })
})

// On files, as the server runs it: the thread misbehaves or dies, and the bridge must neither pass
// on a wrong answer nor stay broken.
describe('PGlite thread faults', () => {
  let database: Database
  let dir: string
  const events: string[] = []
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'pennant-pglite-'))
    database = await openDatabase({
      dataDir: dir,
      pglite: {
        faults: true,
        statementTimeoutMs: 4000,
        onCrash: (e) => events.push(`crash: ${e.message}`),
        onRestart: () => events.push('restarted'),
        onFatal: (e) => events.push(`fatal: ${e.message}`),
      },
    })
    await database.db.execute(sql`create table r (id int primary key, note text)`)
    await database.db.execute(sql`insert into r values (1, 'one'), (2, 'two')`)
  }, 120_000)
  afterAll(async () => {
    await database?.close()
    if (dir) await rm(dir, { recursive: true, force: true })
  })

  const rows = async (where = sql`true`) =>
    (
      (await database.db.execute(sql`select id, note from r where ${where} order by id`)) as unknown as {
        rows: { id: number; note: string }[]
      }
    ).rows.map((r) => `${r.id}:${r.note}`)
  /** Transactions that each read one value of their own: each must get exactly its own. */
  const ownAnswers = async () => {
    for (const n of [11, 12, 13]) {
      const got = await database.db.transaction(async (tx) => {
        const a = (await tx.execute(sql`select ${n}::int as n`)) as unknown as { rows: { n: number }[] }
        const b = (await tx.execute(sql`select note from r where id = 1`)) as unknown as {
          rows: { note: string }[]
        }
        return [a.rows[0]?.n, b.rows[0]?.note]
      })
      expect(got).toEqual([n, 'one'])
    }
  }

  it('a stale answer left on the port is never taken as the answer to a later statement', async () => {
    const before = database.pglite!.discarded()
    await database.pglite!.inject('stale')
    const got = await database.db.transaction(
      async (tx) => (await tx.execute(sql`select 'mine' as v`)) as unknown as { rows: unknown[] },
    )
    expect(got.rows).toEqual([{ v: 'mine' }])
    expect(database.pglite!.discarded()).toBe(before + 1)
    await ownAnswers()
    expect(events).toEqual([])
  })

  it('a wake-up with no answer to read waits for the answer instead of failing', async () => {
    await database.pglite!.inject('late')
    const got = await database.db.transaction(
      async (tx) => (await tx.execute(sql`select 'late but mine' as v`)) as unknown as { rows: unknown[] },
    )
    expect(got.rows).toEqual([{ v: 'late but mine' }])
    await ownAnswers()
    expect(events).toEqual([])
  })

  it('a thread that ends during a statement: that transaction fails as unavailable, a new thread serves the right rows', async () => {
    await database.pglite!.inject('exit')
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into r values (3, 'lost with the thread')`)
      })
      .catch((e: unknown) => e)
    expect(isDatabaseUnavailable(err)).toBe(true)
    // Sent while the new thread starts: waits for it, then answered.
    expect(await rows()).toEqual(['1:one', '2:two'])
    expect(events).toEqual(['crash: the PGlite thread ended during a statement', 'restarted'])
    await ownAnswers()
  }, 60_000)

  it('killed mid-transaction: that transaction is rolled back, the next statements give the right rows', async () => {
    events.length = 0
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`update r set note = 'changed' where id = 1`)
        await tx.execute(sql`insert into r values (4, 'uncommitted')`)
        await database.pglite!.kill()
        await tx.execute(sql`insert into r values (5, 'after the kill')`)
      })
      .catch((e: unknown) => e)
    expect(isDatabaseUnavailable(err)).toBe(true)
    expect(events).toEqual(['crash: the PGlite thread was killed on purpose (fault injection)', 'restarted'])
    expect(await rows()).toEqual(['1:one', '2:two'])
    // Committed work after the restart stays, across another kill.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into r values (6, 'six')`)
    })
    const killed = database.pglite!.kill()
    expect(await rows()).toEqual(['1:one', '2:two', '6:six'])
    await killed
    await ownAnswers()
  }, 90_000)

  it('a statement that does not answer in time is refused, and its late answer never reaches anyone', async () => {
    events.length = 0
    const err = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into r values (7, 'slow')`)
        await tx.execute(sql`select pg_sleep(8), 'too late' as v`)
      })
      .catch((e: unknown) => e)
    expect(isDatabaseUnavailable(err)).toBe(true)
    expect(events[0]).toBe('crash: the PGlite thread did not answer a statement in 4000 ms')
    expect(await rows()).toEqual(['1:one', '2:two', '6:six'])
    await ownAnswers()
  }, 90_000)

  it('under load, a kill gives each statement its own answer or a refusal, never another one', async () => {
    events.length = 0
    let stop = false
    let right = 0
    let refused = 0
    const wrong: string[] = []
    let target = 0
    let reached: () => void = () => {}
    const until = (n: number) =>
      new Promise<void>((resolve) => {
        target = n
        reached = resolve
      })
    const count = (ok: boolean, what: string) => {
      if (!ok) wrong.push(what)
      else if (++right >= target) reached()
    }
    const player = async (p: number) => {
      for (let i = 0; !stop; i++) {
        const n = p * 100_000 + i
        try {
          const got = await database.db.transaction(async (tx) => {
            const a = (await tx.execute(sql`select ${n}::int as n`)) as unknown as { rows: { n: number }[] }
            const b = (await tx.execute(sql`select ${n + 1}::int as n`)) as unknown as {
              rows: { n: number }[]
            }
            return [a.rows[0]?.n, b.rows[0]?.n]
          })
          count(got[0] === n && got[1] === n + 1, `tx ${n}: ${JSON.stringify(got)}`)
          const one = (await database.db.execute(sql`select ${-n}::int as n`)) as unknown as {
            rows: { n: number }[]
          }
          count(one.rows[0]?.n === -n, `statement ${-n}: ${JSON.stringify(one.rows)}`)
        } catch (err) {
          if (isDatabaseUnavailable(err)) refused++
          else wrong.push(`${n}: ${String(err)}`)
        }
      }
    }
    const players = [1, 2, 3, 4].map(player)
    await until(40)
    await database.pglite!.kill()
    const afterKill = right
    await until(afterKill + 40)
    stop = true
    await Promise.all(players)
    expect(wrong).toEqual([])
    expect(events).toEqual(['crash: the PGlite thread was killed on purpose (fault injection)', 'restarted'])
    expect(right).toBeGreaterThanOrEqual(afterKill + 40)
    // What was in flight at the kill was refused, not answered (at least the open transactions).
    expect(refused).toBeGreaterThan(0)
  }, 90_000)
})

describe('PGlite in a data folder', () => {
  it('creates the database in an empty folder, migrates it, and opens it again with what was written', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'pennant-pglite-first-'))
    try {
      // The first open creates the database on a thread that then ends (initdb's spent buffers
      // go with it); the server's own thread opens the created database.
      const first = await openDatabase({ dataDir })
      await first.db.insert(posts).values({ id: 'abcd1234', title: 'kept', updateTimeUtc: new Date() })
      await first.close()
      const again = await openDatabase({ dataDir })
      try {
        expect(await again.db.select({ id: posts.id, title: posts.title }).from(posts)).toEqual([
          { id: 'abcd1234', title: 'kept' },
        ])
      } finally {
        await again.close()
      }
    } finally {
      await rm(dataDir, { recursive: true, force: true })
    }
  }, 120_000)
})
