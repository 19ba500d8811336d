import { type ReactNode, useCallback, useState } from 'react'
import { t } from '@/i18n'
import { errorMessage } from '@/utils/error-message'
import { notify } from '@/utils/notify'

export interface SubmitOptions<T> {
  /** The success notice, or a function of the action's result giving it. None: the screen shows the change. */
  success?: ReactNode | ((result: T) => ReactNode)
  /** Title of the failure toast (default: what the HTTP status tells). */
  failure?: string
}

/**
 * One way to run a form's submit or an action button: `busy` while it runs, the success notice
 * when it worked, a failure toast with the server's message (the `title` of its `{title, status}`)
 * when not, and that message kept in `failure` for forms that also show it inline (cleared by
 * the next run). `run` resolves to whether it worked, so a dialog closes only on success; it
 * never throws.
 */
export function useSubmit() {
  const [busy, setBusy] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const run = useCallback(async <T>(action: () => Promise<T>, options: SubmitOptions<T> = {}) => {
    setBusy(true)
    setFailure(null)
    try {
      const result = await action()
      const { success } = options
      if (success !== undefined && success !== null)
        notify.success(typeof success === 'function' ? success(result) : success)
      return true
    } catch (err) {
      setFailure(errorMessage(err, t('common.error.unknown')))
      notify.error(err, options.failure)
      return false
    } finally {
      setBusy(false)
    }
  }, [])
  const clearFailure = useCallback(() => setFailure(null), [])
  return { busy, run, failure, clearFailure }
}
