import { lazy, type ReactNode, Suspense, useSyncExternalStore } from 'react'

export interface ConfirmOptions {
  title: ReactNode
  message: ReactNode
  confirmLabel?: string
  cancelLabel?: string
  /** Red confirm button for destructive actions. */
  danger?: boolean
}

interface Request extends ConfirmOptions {
  id: number
  resolve: (answer: boolean) => void
}

// One pending question at a time; a new one answers the previous with "no".
let pending: Request | null = null
let nextId = 1
const listeners = new Set<() => void>()
const emit = () => {
  for (const listener of listeners) listener()
}

/**
 * Asks the user to confirm; resolves true or false. The dialog's code loads on first use, so
 * screens get confirmations without a modal manager in every first load.
 */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  pending?.resolve(false)
  // The dialog unmounts at once when answered and cannot hand the focus back itself: keyboard
  // and screen reader users carry on from the control that asked, unless something took it.
  const trigger = document.activeElement
  const answered = new Promise<boolean>((resolve) => {
    pending = { ...options, id: nextId++, resolve }
    emit()
  })
  void answered.then(() =>
    requestAnimationFrame(() => {
      const lost = !document.activeElement || document.activeElement === document.body
      if (lost && trigger instanceof HTMLElement && trigger.isConnected) trigger.focus()
    }),
  )
  return answered
}

const ConfirmDialog = lazy(() => import('./confirm-dialog'))

/** Renders the pending confirmation; mounted once in the app. */
export function ConfirmHost() {
  const request = useSyncExternalStore(
    (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    () => pending,
  )
  if (!request) return null
  const answer = (value: boolean) => {
    request.resolve(value)
    if (pending?.id === request.id) pending = null
    emit()
  }
  return (
    <Suspense fallback={null}>
      <ConfirmDialog key={request.id} {...request} onDone={answer} />
    </Suspense>
  )
}
