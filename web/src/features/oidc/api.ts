import { api, unwrap } from '@/api/client'
import { ONCE, useApi, useRevalidate } from '@/api/hooks'
import type { Body, Ok } from '@/api/types'
import { useFeature, useFeatureActions, useFeatures } from '@/features/extensions/api'

export type IdentityProvider = Ok<'/api/ext/admin/identity-providers'>[number]
export type ProviderCreate = Body<'/api/ext/admin/identity-providers', 'post'>
export type ProviderUpdate = Body<'/api/ext/admin/identity-providers/{id}', 'put'>
export type OwnIdentities = Ok<'/api/ext/oidc/identities'>

const ADMIN = '/api/ext/admin/identity-providers'
const IDENTITIES = '/api/ext/oidc/identities'

/**
 * The providers the login page offers: none while the switch is off (the server answers 404)
 * or when the list cannot be read, so the password form is never held up by it.
 */
export function usePublicProviders() {
  // Asked only once the switch is known to be on: a 404 would show in the browser's console.
  const on = useFeature('oidc')
  const { data } = useApi(on ? '/api/ext/oidc/providers' : null, undefined, {
    ...ONCE,
    shouldRetryOnError: false,
  })
  return data ?? []
}

/** The caller's linked providers; `off` when the switch is off (404). */
export function useOwnIdentities() {
  const result = useApi(IDENTITIES, undefined, { ...ONCE, shouldRetryOnError: false })
  return { ...result, off: result.error?.httpStatus === 404 }
}

/** Starts linking: the server keeps the flow behind a cookie and tells where to send the browser. */
export async function startLink(slug: string): Promise<string> {
  const { url } = await unwrap(api.POST('/api/ext/oidc/{slug}/link', { params: { path: { slug } } }))
  return url
}

export function useUnlink() {
  const revalidate = useRevalidate()
  return async (slug: string) => {
    try {
      await unwrap(api.DELETE('/api/ext/oidc/identities/{slug}', { params: { path: { slug } } }))
    } finally {
      await revalidate(IDENTITIES)
    }
  }
}

/** Every provider, for the admin screen. */
export function useIdentityProviders() {
  return useApi(ADMIN, undefined, { ...ONCE, keepPreviousData: true })
}

/** Whether the `oidc` switch is on, and a way to flip it. */
export function useOidcSwitch() {
  const { data, error } = useFeatures()
  const actions = useFeatureActions()
  return {
    on: data?.oidc,
    error,
    async set(oidc: boolean) {
      await actions.set({ oidc })
    },
  }
}

/** Adding, editing and deleting providers; each refreshes the list. */
export function useProviderActions() {
  const revalidate = useRevalidate()
  const refreshed = async <T>(pending: Promise<T>): Promise<T> => {
    try {
      return await pending
    } finally {
      await revalidate(ADMIN)
    }
  }
  const byId = (id: number) => ({ params: { path: { id } } })
  return {
    create: (body: ProviderCreate) => refreshed(unwrap(api.POST(ADMIN, { body }))),
    update: (id: number, body: ProviderUpdate) =>
      refreshed(unwrap(api.PUT(`${ADMIN}/{id}`, { ...byId(id), body }))),
    remove: (id: number) => refreshed(unwrap(api.DELETE(`${ADMIN}/{id}`, byId(id)))),
  }
}
