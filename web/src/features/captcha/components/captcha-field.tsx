import { lazy, Suspense } from 'react'
import type { Captcha } from '../use-captcha'

// Each provider's field loads only where that provider is active.
const HashPowField = lazy(() => import('./hash-pow-field'))
const TurnstileField = lazy(() => import('./turnstile-field'))

/**
 * The captcha of an account form (api-contract §1.12): nothing for `None`, a proof of work for
 * `HashPow`, Cloudflare's widget for `CloudflareTurnstile`. The answer reaches the form through
 * `captcha.answer()`.
 */
export function CaptchaField({ captcha, action }: { captcha: Captcha; action: string }) {
  if (captcha.provider === 'HashPow')
    return (
      <Suspense fallback={null}>
        <HashPowField store={captcha.store} />
      </Suspense>
    )
  if (captcha.provider === 'CloudflareTurnstile')
    return (
      <Suspense fallback={null}>
        <TurnstileField store={captcha.store} siteKey={captcha.siteKey} action={action} />
      </Suspense>
    )
  return null
}
