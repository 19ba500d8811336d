import { describe, expect, it } from 'vitest'
import {
  BLANK_FORM,
  issuerProblem,
  oidcErrorKey,
  suggestSlug,
  toUpdate,
  validateProviderForm,
} from './provider-form'

const good = {
  ...BLANK_FORM,
  slug: 'uni',
  displayName: 'University',
  issuer: 'https://id.uni.example',
  clientId: 'pennant',
  clientSecret: 's3cret',
}

describe('the provider form', () => {
  it('accepts a complete form, and a blank secret only when editing', () => {
    expect(validateProviderForm(good, false)).toEqual({})
    expect(validateProviderForm({ ...good, clientSecret: '' }, false)).toEqual({
      clientSecret: 'oidc.error.required',
    })
    expect(validateProviderForm({ ...good, clientSecret: '' }, true)).toEqual({})
  })

  it('names each bad field', () => {
    const errors = validateProviderForm(
      { ...good, slug: 'Bad Slug', displayName: ' ', clientId: '', emailClaim: 'e mail' },
      false,
    )
    expect(errors).toEqual({
      slug: 'oidc.error.slug',
      displayName: 'oidc.error.required',
      clientId: 'oidc.error.required',
      emailClaim: 'oidc.error.claim',
    })
  })

  it('takes https issuers, and http only on this machine', () => {
    expect(issuerProblem('https://id.example.org/realms/ctf')).toBeUndefined()
    expect(issuerProblem('http://127.0.0.1:8080')).toBeUndefined()
    expect(issuerProblem('http://id.example.org')).toBe('oidc.error.issuer')
    expect(issuerProblem('https://')).toBe('oidc.error.issuer')
    expect(issuerProblem('https://a:b@id.example.org')).toBe('oidc.error.issuer')
  })

  it('sends a blank secret as null on edit, so the stored one stays', () => {
    expect(toUpdate({ ...good, clientSecret: '  ' }).clientSecret).toBeNull()
    expect(toUpdate(good).clientSecret).toBe('s3cret')
  })

  it('suggests a slug from the display name', () => {
    expect(suggestSlug('Université de Lyon 2')).toBe('universite-de-lyon-2')
    expect(suggestSlug('  --ACME  Corp!! ')).toBe('acme-corp')
  })

  it('words known reasons and falls back for unknown ones', () => {
    expect(oidcErrorKey('email_unverified')).toBe('account.oidc.error.email_unverified')
    expect(oidcErrorKey('<script>')).toBe('account.oidc.error.unknown')
    expect(oidcErrorKey(null)).toBeNull()
  })
})
