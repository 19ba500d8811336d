import { type ComponentType, lazy } from 'react'

const RELOADED = 'pennant-chunk-reload'

/**
 * A page (or layout) module loaded when first shown. If the module cannot be fetched
 * (typically: a new release replaced the hashed files), the page reloads once to pick up the
 * new build; a second failure reaches the error screen.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>) {
  return lazy(async () => {
    try {
      const module = await load()
      sessionStorage.removeItem(RELOADED)
      return module
    } catch (err) {
      if (!sessionStorage.getItem(RELOADED)) {
        sessionStorage.setItem(RELOADED, '1')
        location.reload()
        return new Promise<never>(() => {})
      }
      throw err
    }
  })
}
