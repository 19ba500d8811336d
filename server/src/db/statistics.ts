import { sql } from 'drizzle-orm'
import type { Db } from './index.ts'

/**
 * Tables whose planner statistics are missing or out of date, analysed now (never analysed
 * first, then the smallest); returns their names. The embedded database needs this: PGlite runs PostgreSQL as a single
 * process, without autovacuum, so nothing else ever analyses a table. Without statistics the
 * planner guesses a condition's selectivity: loading a board of 60 000 solves chose a nested
 * loop over 60 000 index probes (0.7 s in PGlite) instead of a hash join (0.2 s).
 *
 * Missing: never analysed (`reltuples` < 0) and more than a few pages. Out of date: more rows
 * changed since the last analysis (as counted since this start) than autovacuum's own
 * threshold would allow (50 rows + 10 % of the table), with a floor of 500 rows so small tables
 * are not analysed over and over. An analysis holds PGlite's only connection for its length
 * (0.3–0.5 s for a table of 60 000–180 000 rows here), so each run goes table by table.
 */
export async function analyzeStale(db: Db): Promise<string[]> {
  // The counter function, not the pg_stat_user_tables view: the view took ~0.1 s on PGlite's
  // first call (at every start), the function and pg_class a tenth of that.
  const result = await db.execute(sql`
    select c.relname as name
    from pg_class c
    where c.relnamespace = 'public'::regnamespace and c.relkind = 'r'
      and ((c.reltuples < 0 and pg_relation_size(c.oid) > 8 * 8192)
        or pg_stat_get_mod_since_analyze(c.oid) > greatest(500, 50 + 0.1 * greatest(c.reltuples, 0)))
    order by c.reltuples`)
  const names = (result as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)
  for (const name of names) await db.execute(sql`analyze ${sql.identifier(name)}`)
  return names
}
