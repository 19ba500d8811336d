import { api, unwrap } from '@/api/client'
import { ApiError } from '@/api/error'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Ok } from '@/api/types'

export type ContainerInstance = Ok<'/api/admin/instances'>['data'][number]

const INSTANCES = '/api/admin/instances'

/** Every team container; every 10 s, since they start, stop and expire on their own. */
export function useInstances() {
  return useApi(INSTANCES, undefined, { refreshInterval: 10_000, keepPreviousData: true })
}

/** Which container backend runs and whether it answers; again when the admin comes back. */
export function useContainerStatus() {
  return useApi('/api/ext/containers/status', undefined, { ...ONCE, revalidateOnFocus: true })
}

/** Destroys a team container; one that is already gone counts as destroyed. */
export function useDestroyInstance() {
  const revalidate = useRevalidate()
  return async (containerGuid: string) => {
    try {
      await unwrap(api.DELETE('/api/admin/instances/{id}', { params: { path: { id: containerGuid } } }))
    } catch (err) {
      if (!(err instanceof ApiError && err.httpStatus === 404)) throw err
    } finally {
      await revalidate(INSTANCES)
    }
  }
}

/** How many lines of a container's output the instances page shows. */
export const LOG_LINES = 200

/** The last lines a container wrote, read when asked (null: nothing open). */
export function useInstanceLogs(containerGuid: string | null) {
  return useApi(
    containerGuid ? '/api/admin/instances/{id}/logs' : null,
    { path: { id: containerGuid ?? '' }, query: { lines: LOG_LINES } },
    { ...ONCE, revalidateOnFocus: false },
  )
}
