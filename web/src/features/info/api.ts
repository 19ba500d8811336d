import { ONCE, useApi } from '@/api/hooks'
import type { Ok } from '@/api/types'

export type ClientConfig = Ok<'/api/config'>

const CONFIG_KEY = 'client-config'

/** The last config seen, so the title and colours paint before the API answers. */
function storedConfig(): ClientConfig | undefined {
  try {
    const raw = localStorage.getItem(CONFIG_KEY)
    return raw ? (JSON.parse(raw) as ClientConfig) : undefined
  } catch {
    return undefined
  }
}

/** Platform config: fetched once, never polled, not retried (seed section 7). */
export function useConfig() {
  const { data, ...rest } = useApi('/api/config', undefined, {
    ...ONCE,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
    fallbackData: storedConfig(),
    onSuccess(config) {
      try {
        localStorage.setItem(CONFIG_KEY, JSON.stringify(config))
      } catch {}
    },
  })
  return { config: data, ...rest }
}

/** Which captcha the account forms must show. */
export function useCaptchaConfig() {
  const { data, ...rest } = useApi('/api/captcha', undefined, {
    ...ONCE,
    revalidateOnReconnect: false,
    shouldRetryOnError: false,
  })
  return { captcha: data, ...rest }
}
