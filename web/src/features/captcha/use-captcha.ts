import { useState } from 'react'
import type { CaptchaProvider } from '@/api/types'
import { useCaptchaConfig } from '@/features/info/api'
import { type CaptchaStore, createCaptchaStore } from './captcha-store'

export interface Captcha {
  /** The active provider; undefined until the server has said. */
  provider: CaptchaProvider | undefined
  siteKey: string
  store: CaptchaStore
  /** The `challenge` to send with the form: waits for the field, undefined when none is needed. */
  answer(): Promise<string | undefined>
  /** Call after every submit that reached the server: each answer is single use. */
  renew(): void
}

/** A captcha for one form; render it with `<CaptchaField captcha={…} action="…" />`. */
export function useCaptcha(): Captcha {
  const { captcha } = useCaptchaConfig()
  const [store] = useState(createCaptchaStore)
  const provider = captcha?.type
  const needed = provider === 'HashPow' || provider === 'CloudflareTurnstile'
  return {
    provider,
    siteKey: captcha?.siteKey ?? '',
    store,
    answer: async () => (needed ? store.take() : undefined),
    renew: () => {
      if (needed) store.renew()
    },
  }
}
