import { Text, useComputedColorScheme } from '@mantine/core'
import { useEffect, useRef, useState, useSyncExternalStore } from 'react'
import { useTranslation } from '@/i18n'
import type { CaptchaStore } from '../captcha-store'
import { loadTurnstile } from '../turnstile'
import classes from './captcha.module.css'

/**
 * Cloudflare Turnstile: its script loads when this field first shows; the widget follows the
 * colour scheme and is rendered afresh after every submit (each token is single use).
 */
export default function TurnstileField({
  store,
  siteKey,
  action,
}: {
  store: CaptchaStore
  siteKey: string
  action: string
}) {
  const { t } = useTranslation()
  const scheme = useComputedColorScheme('dark')
  const generation = useSyncExternalStore(store.subscribe, store.generation)
  const box = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)

  // biome-ignore lint/correctness/useExhaustiveDependencies: a renewal (new generation) renders a new widget
  useEffect(() => {
    let widget: string | undefined
    let stopped = false
    const fail = (err: unknown) => {
      setFailed(true)
      store.fail(err)
    }
    setFailed(false)
    loadTurnstile()
      .then((turnstile) => {
        if (stopped || !box.current) return
        widget = turnstile.render(box.current, {
          sitekey: siteKey,
          action,
          theme: scheme,
          callback: (token) => store.set(token),
          'expired-callback': () => store.clear(),
          'error-callback': () => fail(new Error(t('account.captcha.failed'))),
        })
      })
      .catch(fail)
    return () => {
      stopped = true
      if (widget) window.turnstile?.remove(widget)
    }
  }, [siteKey, action, scheme, generation])

  return (
    <div>
      <div ref={box} className={classes.turnstile} />
      {failed && (
        <Text size="sm" c="red" role="alert">
          {t('account.captcha.failed')}
        </Text>
      )}
    </div>
  )
}
