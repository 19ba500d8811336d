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
  return {
    write(entry: AuditEntry): void {
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
    },
    /** Waits for writes in flight (on shutdown). */
    async flush(): Promise<void> {
      await Promise.all(pending)
    },
  }
}
export type AuditService = ReturnType<typeof createAuditService>
