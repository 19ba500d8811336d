import type { IdentityProvider, ProviderCreate, ProviderUpdate } from './api'

/** The add/edit form as typed. `clientSecret` stays blank when editing unless it is replaced. */
export interface ProviderForm {
  slug: string
  displayName: string
  issuer: string
  clientId: string
  clientSecret: string
  userNameClaim: string
  emailClaim: string
  allowSignUp: boolean
  enabled: boolean
}

export type ProviderFormErrors = Partial<Record<keyof ProviderForm, string>>

export const BLANK_FORM: ProviderForm = {
  slug: '',
  displayName: '',
  issuer: 'https://',
  clientId: '',
  clientSecret: '',
  userNameClaim: 'preferred_username',
  emailClaim: 'email',
  allowSignUp: false,
  enabled: true,
}

/** The form filled from a stored provider (its secret is never known to the client). */
export function formOf(p: IdentityProvider): ProviderForm {
  return {
    slug: p.slug,
    displayName: p.displayName,
    issuer: p.issuer,
    clientId: p.clientId,
    clientSecret: '',
    userNameClaim: p.userNameClaim,
    emailClaim: p.emailClaim,
    allowSignUp: p.allowSignUp,
    enabled: p.enabled,
  }
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/
const CLAIM = /^[A-Za-z0-9_.:/-]{1,64}$/

/** Whether the server will take this issuer: https, or http on this machine only. */
export function issuerProblem(issuer: string): string | undefined {
  let url: URL
  try {
    url = new URL(issuer.trim())
  } catch {
    return 'oidc.error.issuer'
  }
  if (url.username || url.password || url.search || url.hash) return 'oidc.error.issuer'
  if (url.protocol === 'https:' && url.hostname) return undefined
  if (url.protocol === 'http:' && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname)) return undefined
  return 'oidc.error.issuer'
}

/** Translation keys per field; empty when the form can be sent. `editing`: a blank secret keeps the old one. */
export function validateProviderForm(form: ProviderForm, editing: boolean): ProviderFormErrors {
  const errors: ProviderFormErrors = {}
  if (!SLUG.test(form.slug)) errors.slug = 'oidc.error.slug'
  if (!form.displayName.trim()) errors.displayName = 'oidc.error.required'
  else if (form.displayName.trim().length > 64) errors.displayName = 'oidc.error.too_long'
  const issuer = issuerProblem(form.issuer)
  if (issuer) errors.issuer = issuer
  if (!form.clientId.trim()) errors.clientId = 'oidc.error.required'
  if (!editing && !form.clientSecret.trim()) errors.clientSecret = 'oidc.error.required'
  if (!CLAIM.test(form.userNameClaim)) errors.userNameClaim = 'oidc.error.claim'
  if (!CLAIM.test(form.emailClaim)) errors.emailClaim = 'oidc.error.claim'
  return errors
}

export function toCreate(form: ProviderForm): ProviderCreate {
  return {
    slug: form.slug,
    displayName: form.displayName.trim(),
    issuer: form.issuer.trim(),
    clientId: form.clientId.trim(),
    clientSecret: form.clientSecret,
    userNameClaim: form.userNameClaim,
    emailClaim: form.emailClaim,
    allowSignUp: form.allowSignUp,
    enabled: form.enabled,
  }
}

/** An edit: a blank secret is sent as null, which keeps the stored one. */
export function toUpdate(form: ProviderForm): ProviderUpdate {
  return { ...toCreate(form), clientSecret: form.clientSecret.trim() ? form.clientSecret : null }
}

/** The slug a display name suggests (`Example University` → `example-university`). */
export function suggestSlug(displayName: string): string {
  return displayName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32)
    .replace(/-+$/, '')
}

/** The reasons the server may send back to the login and profile pages (`?oidcError=`). */
export const OIDC_ERRORS = [
  'off',
  'unknown_provider',
  'unreachable',
  'state',
  'denied',
  'exchange',
  'banned',
  'not_confirmed',
  'awaiting_activation',
  'email_missing',
  'email_unverified',
  'email_taken',
  'domain',
  'signup_closed',
  'already_linked',
  'already_has',
  'link_session',
] as const

/** The translation key for a `?oidcError=` value; anything else reads as a general failure. */
export function oidcErrorKey(reason: string | null): string | null {
  if (!reason) return null
  return (OIDC_ERRORS as readonly string[]).includes(reason)
    ? `account.oidc.error.${reason}`
    : 'account.oidc.error.unknown'
}
