import { desc, eq, lt } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/index.ts'
import { logs } from '../../db/schema.ts'
import type { Bus } from '../../infra/bus/index.ts'

/** `TaskStatus` names as the admin log shows them. */
export type TaskStatus = 'Success' | 'Failed' | 'Duplicate' | 'Denied' | 'NotFound' | 'Exit' | 'Pending'

export interface AuditEntry {
  level?: 'Information' | 'Warning' | 'Error' | 'Fatal'
  /** Which part of the platform speaks, e.g. `account`. */
  logger: string
  message: string
  status?: TaskStatus
  userName?: string | null
  ip?: string | null
}

type LogRow = typeof logs.$inferSelect

/** A record as the admin log shows it (`LogMessageModel`; time in epoch ms). */
const presentLog = (r: LogRow) => ({
  time: r.timeUtc.getTime(),
  name: r.userName ?? 'Anonymous',
  level: r.level,
  ip: r.remoteIp,
  msg: r.message,
  status: r.status,
})

/**
 * The admin-visible audit trail (table `logs`). Writing never fails the request that caused it:
 * a failed insert goes to the process log instead. Each stored record is published on the bus
 * (the admin hub streams it).
 */
export function createAuditService(deps: { db: Db; log: FastifyBaseLogger; bus?: Bus }) {
  // Entries are written in groups: those arriving while an insert runs go together in the next
  // one, so a burst of solves costs a statement, not one each.
  const queued: (typeof logs.$inferInsert)[] = []
  let writing: Promise<void> | null = null

  async function insert(rows: (typeof logs.$inferInsert)[]) {
    let stored: LogRow[]
    try {
      stored = await deps.db.insert(logs).values(rows).returning()
    } catch (err) {
      // One bad entry must not lose the others.
      if (rows.length === 1) deps.log.error({ err }, 'audit log write failed')
      else for (const row of rows) await insert([row])
      return
    }
    for (const row of stored) deps.bus?.publish('log.record', presentLog(row))
  }

  async function drain() {
    await new Promise((resolve) => setImmediate(resolve))
    while (queued.length) {
      const batch = queued.splice(0, 500)
      await insert(batch)
    }
    writing = null
  }

  function write(entry: AuditEntry): void {
    queued.push({
      timeUtc: new Date(),
      level: entry.level ?? 'Information',
      logger: entry.logger,
      status: entry.status ?? null,
      remoteIp: entry.ip?.slice(0, 40) ?? null,
      userName: entry.userName?.slice(0, 16) ?? null,
      message: entry.message,
    })
    writing ??= drain()
  }

  return {
    write,

    /** Something a signed-in user did and that succeeded, e.g. an admin action. */
    action(logger: string, actor: { userName: string }, ip: string, message: string): void {
      write({ logger, message, status: 'Success', userName: actor.userName, ip })
    },

    /** Newest first; `level` is a level name or `All`. */
    async page(level: string, count: number, skip: number) {
      const rows = await deps.db
        .select()
        .from(logs)
        .where(level === 'All' ? undefined : eq(logs.level, level))
        .orderBy(desc(logs.timeUtc), desc(logs.id))
        .limit(count)
        .offset(skip)
      return rows.map(presentLog)
    },

    /** Forgets records older than the retention (a timed job). */
    async trim(retentionDays: number): Promise<void> {
      await deps.db.delete(logs).where(lt(logs.timeUtc, new Date(Date.now() - retentionDays * 86_400_000)))
    },

    /** Waits for writes in flight (on shutdown). */
    async flush(): Promise<void> {
      while (writing) await writing
    },
  }
}
export type AuditService = ReturnType<typeof createAuditService>
