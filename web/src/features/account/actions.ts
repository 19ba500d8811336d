import { useSWRConfig } from 'swr'
import { api, unwrap } from '@/api/client'
import type { paths } from '@/api/schema.gen'
import type { Body, RegisterStatus } from '@/api/types'
import { PROFILE_KEY } from './api'

// The account's changes, apart from api.ts so the pages that only read the user (every page
// with the navigation) do not load them.
type AccountBody<P extends keyof paths, M extends 'post' | 'put'> = Body<P, M>

/** Refreshes the profile and everything else cached: what the server shows may depend on who asks. */
function useSessionChanged() {
  const { mutate } = useSWRConfig()
  return () => mutate(() => true)
}

/** Signing in, registering and following the registration link, each followed by a refresh. */
export function useSignIn() {
  const sessionChanged = useSessionChanged()
  return {
    async login(body: AccountBody<'/api/account/login', 'post'>) {
      await unwrap(api.POST('/api/account/login', { body }))
      await sessionChanged()
    },
    /** The server's outcome: signed in, or waiting for an admin or the e-mail link. */
    async register(body: AccountBody<'/api/account/register', 'post'>): Promise<RegisterStatus> {
      const { data } = await unwrap(api.POST('/api/account/register', { body }))
      if (data === 'LoggedIn') await sessionChanged()
      return data
    },
    /** Confirms the address from the mailed link; the server signs the user in. */
    async verify(body: AccountBody<'/api/account/verify', 'post'>) {
      await unwrap(api.POST('/api/account/verify', { body }))
      await sessionChanged()
    },
  }
}

/** Mails a password-reset link. */
export function requestRecovery(body: AccountBody<'/api/account/recovery', 'post'>) {
  return unwrap(api.POST('/api/account/recovery', { body }))
}

/** Sets a new password with the mailed token (`email` and `rToken` exactly as in the link). */
export function resetPassword(body: AccountBody<'/api/account/passwordreset', 'post'>) {
  return unwrap(api.POST('/api/account/passwordreset', { body }))
}

/** Changes to the signed-in account; each refreshes the profile it changes. */
export function useProfileActions() {
  const { mutate } = useSWRConfig()
  const refresh = () => mutate(PROFILE_KEY)
  return {
    refresh,
    async update(body: AccountBody<'/api/account/update', 'put'>) {
      await unwrap(api.PUT('/api/account/update', { body }))
      await refresh()
    },
    /** The server signs every other session of this user out. */
    // The profile says whether a new password is still asked for.
    changePassword: (body: AccountBody<'/api/account/changepassword', 'put'>) =>
      unwrap(api.PUT('/api/account/changepassword', { body })).then(refresh),
    /** Whether a confirmation mail went to the new address (the address changes only after it). */
    async changeEmail(newMail: string): Promise<boolean> {
      const { data } = await unwrap(api.PUT('/api/account/changeemail', { body: { newMail } }))
      return data
    },
    async confirmEmailChange(body: AccountBody<'/api/account/mailchangeconfirm', 'post'>) {
      await unwrap(api.POST('/api/account/mailchangeconfirm', { body }))
      await refresh()
    },
  }
}
