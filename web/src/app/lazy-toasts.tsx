import { notificationsStore } from '@mantine/notifications'
import { lazy, Suspense, useState, useSyncExternalStore } from 'react'

const Toasts = lazy(() => import('./toasts'))

/**
 * Toasts load with the first one shown, not with the app: until then only the small store is
 * here; a toast raised before the chunk arrives waits in it and appears when it does.
 */
export function LazyToasts() {
  const count = useSyncExternalStore(
    notificationsStore.subscribe,
    () => notificationsStore.getState().notifications.length + notificationsStore.getState().queue.length,
  )
  const [needed, setNeeded] = useState(false)
  if (count > 0 && !needed) setNeeded(true)
  if (!needed) return null
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  )
}
