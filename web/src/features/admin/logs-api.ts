import { useApi } from '@/api/hooks'
import type { Ok } from '@/api/types'
import { type LogLevel, RECORD_PAGE, skipOf } from './admin-lists'

export type LogEntry = Ok<'/api/admin/logs'>[number]

/**
 * A page of the platform log (50, newest first) at a level. The first page is polled every 10 s
 * (every 2 minutes while the admin hub streams new records in); older pages stay still.
 */
export function useLogs(level: LogLevel, page: number, live = false) {
  return useApi(
    '/api/admin/logs',
    { query: { level, count: RECORD_PAGE, skip: skipOf(page, RECORD_PAGE) } },
    {
      refreshInterval: page === 1 ? (live ? 120_000 : 10_000) : 0,
      revalidateOnFocus: page === 1,
      keepPreviousData: true,
    },
  )
}
