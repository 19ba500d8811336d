import { desc, eq, lt } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/index.ts'
import { logs } from '../../db/schema.ts'

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

/**
 * The admin-visible audit trail (table `logs`). Writing never fails the request that caused it:
 * a failed insert goes to the process log instead.
 */
export function createAuditService(deps: { db: Db; log: FastifyBaseLogger }) {
  const pending = new Set<Promise<void>>()
  function write(entry: AuditEntry): void {
    const done: Promise<void> = deps.db
      .insert(logs)
      .values({
        timeUtc: new Date(),
        level: entry.level ?? 'Information',
        logger: entry.logger,
        status: entry.status ?? null,
        remoteIp: entry.ip?.slice(0, 40) ?? null,
        userName: entry.userName?.slice(0, 16) ?? null,
        message: entry.message,
      })
      .then(
        () => {},
        (err: unknown) => deps.log.error({ err }, 'audit log write failed'),
      )
      .finally(() => pending.delete(done))
    pending.add(done)
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
      return rows.map((r) => ({
        time: r.timeUtc.getTime(),
        name: r.userName ?? 'Anonymous',
        level: r.level,
        ip: r.remoteIp,
        msg: r.message,
        status: r.status,
      }))
    },

    /** Forgets records older than the retention (a timed job). */
    async trim(retentionDays: number): Promise<void> {
      await deps.db.delete(logs).where(lt(logs.timeUtc, new Date(Date.now() - retentionDays * 86_400_000)))
    },

    /** Waits for writes in flight (on shutdown). */
    async flush(): Promise<void> {
      await Promise.all(pending)
    },
  }
}
export type AuditService = ReturnType<typeof createAuditService>
