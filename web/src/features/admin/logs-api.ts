import { useApi } from '@/api/hooks'
import type { Ok } from '@/api/types'
import { type LogLevel, RECORD_PAGE, skipOf } from './admin-lists'

export type LogEntry = Ok<'/api/admin/logs'>[number]

/**
 * A page of the platform log (50, newest first) at a level. The first page is polled every 10 s
 * so new records appear; older pages stay still while being read.
 */
export function useLogs(level: LogLevel, page: number) {
  return useApi(
    '/api/admin/logs',
    { query: { level, count: RECORD_PAGE, skip: skipOf(page, RECORD_PAGE) } },
    {
      refreshInterval: page === 1 ? 10_000 : 0,
      revalidateOnFocus: page === 1,
      keepPreviousData: true,
    },
  )
}
