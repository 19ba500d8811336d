import { type ConfirmOptions, confirm } from '@/components/confirm'

/**
 * `confirm()` asked from a button: once answered, the focus goes back to that button (the
 * dialog unmounts at once, so it cannot hand the focus back itself), for keyboard and screen
 * reader users to carry on where they were.
 */
export async function confirmFrom(trigger: EventTarget | null, options: ConfirmOptions): Promise<boolean> {
  const ok = await confirm(options)
  requestAnimationFrame(() => {
    if (trigger instanceof HTMLElement && trigger.isConnected) trigger.focus()
  })
  return ok
}
