import { api, unwrap } from '@/api/client'
import { ApiError } from '@/api/error'
import { useApi, useRevalidate } from '@/api/hooks'
import type { Ok } from '@/api/types'
import { RECORD_PAGE, skipOf } from './admin-lists'
import { QUIET } from './users-api'

export type StoredFile = Ok<'/api/admin/files'>['data'][number]

const FILES = '/api/admin/files'

/** A page of stored files (50, by name); `total` counts them all. */
export function useFiles(page: number) {
  return useApi(FILES, { query: { count: RECORD_PAGE, skip: skipOf(page, RECORD_PAGE) } }, QUIET)
}

/** Drops one reference to a file (the last one deletes it); one already gone counts as deleted. */
export function useDeleteFile() {
  const revalidate = useRevalidate()
  return async (hash: string) => {
    try {
      await unwrap(api.DELETE('/api/assets/{hash}', { params: { path: { hash } } }))
    } catch (err) {
      if (!(err instanceof ApiError && err.httpStatus === 404)) throw err
    } finally {
      await revalidate(FILES)
    }
  }
}
