import { api, unwrap } from '@/api/client'
import type { Ok } from '@/api/types'

export type PowChallenge = Ok<'/api/captcha/powchallenge'>

/** A new HashPow challenge. Not an SWR hook: each one is single use and must never be cached. */
export function fetchPowChallenge(): Promise<PowChallenge> {
  return unwrap(api.GET('/api/captcha/powchallenge', { cache: 'no-store' }))
}
