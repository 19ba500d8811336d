import { api, unwrap } from '@/api/client'
import type { ApiError } from '@/api/error'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import { useFeatureActions, useFeatures } from '@/features/extensions/api'
import type { WebhookBody } from './webhook-form'

const HOOKS = '/api/ext/admin/webhooks'
/** Admin views refresh when asked to (after a change) and on focus, never on a timer. */
const QUIET = { ...ONCE, revalidateOnFocus: true }

/** Whether the webhooks switch is on (anyone may read the switches). */
export const useWebhooksSwitch = useFeatures

/** Every endpoint; a 404 `Webhook_Off` while the switch is off (no retrying then). */
export function useWebhooks(enabled: boolean) {
  return useApi(enabled ? HOOKS : null, undefined, {
    ...QUIET,
    shouldRetryOnError: (err: ApiError) => err.status !== 404,
  })
}

/** An endpoint's delivery log, newest first; refreshed every few seconds while it is open. */
export function useDeliveries(id: number | null) {
  return useApi(
    id === null ? null : '/api/ext/admin/webhooks/{id}/deliveries',
    { path: { id: id ?? 0 }, query: { count: 50, skip: 0 } },
    { ...QUIET, refreshInterval: 3000 },
  )
}

/** The games an endpoint may be limited to (the first 100, newest first). */
export function useGameChoices() {
  return useApi('/api/edit/games', { query: { count: 100, skip: 0 } }, QUIET)
}

const byId = (id: number) => ({ params: { path: { id } } })

export function useWebhookActions() {
  const revalidate = useRevalidate()
  const features = useFeatureActions()
  const refreshed = async <T>(pending: Promise<T>): Promise<T> => {
    try {
      return await pending
    } finally {
      await revalidate(HOOKS)
    }
  }
  return {
    /** Turns the webhooks switch on or off (other switches keep their value). */
    setSwitch: async (on: boolean) => {
      const result = await features.set({ webhooks: on })
      await revalidate(HOOKS)
      return result
    },
    /** Resolves with the endpoint and its secret (shown this once). */
    create: (body: WebhookBody) => refreshed(unwrap(api.POST(HOOKS, { body }))),
    update: (id: number, body: WebhookBody & { rotateSecret?: boolean }) =>
      refreshed(unwrap(api.PUT('/api/ext/admin/webhooks/{id}', { ...byId(id), body }))),
    remove: (id: number) => refreshed(unwrap(api.DELETE('/api/ext/admin/webhooks/{id}', byId(id)))),
    test: (id: number) => refreshed(unwrap(api.POST('/api/ext/admin/webhooks/{id}/test', byId(id)))),
    retry: (deliveryId: number) =>
      refreshed(unwrap(api.POST('/api/ext/admin/webhooks/deliveries/{id}/retry', byId(deliveryId)))),
  }
}
