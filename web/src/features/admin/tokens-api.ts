import { api, unwrap } from '@/api/client'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { TokenCreate } from './token-form'

const TOKENS = '/api/tokens'

/** Every API token; again when the admin comes back (`lastUsedAt` moves as scripts use them). */
export function useTokens() {
  return useApi(TOKENS, undefined, { ...ONCE, revalidateOnFocus: true, keepPreviousData: true })
}

const byId = (id: string) => ({ params: { path: { id } } })
/** `DELETE /api/tokens/{id}` revokes, or with `delete=true` removes the row. */
const deleting = (id: string, remove: boolean) => ({ params: { path: { id }, query: { delete: remove } } })

/** Creating, revoking, restoring and deleting tokens; each refreshes the list. */
export function useTokenActions() {
  const revalidate = useRevalidate()
  const refreshed = async <T>(pending: Promise<T>): Promise<T> => {
    try {
      return await pending
    } finally {
      await revalidate(TOKENS)
    }
  }
  return {
    /** Resolves with the token string (shown this once) and its row. */
    create: (body: TokenCreate) => refreshed(unwrap(api.POST('/api/tokens', { body }))),
    revoke: (id: string) => refreshed(unwrap(api.DELETE('/api/tokens/{id}', deleting(id, false)))),
    restore: (id: string) => refreshed(unwrap(api.POST('/api/tokens/{id}/restore', byId(id)))),
    remove: (id: string) => refreshed(unwrap(api.DELETE('/api/tokens/{id}', deleting(id, true)))),
  }
}
