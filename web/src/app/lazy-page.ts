import { type ComponentType, type LazyExoticComponent, lazy } from 'react'

const RELOADED = 'pennant-chunk-reload'

export type LazyPage = LazyExoticComponent<ComponentType> & {
  /** Starts fetching the module now (at start-up, for the page being opened); settles when loaded or failed. */
  preload: () => Promise<void>
}

/**
 * A page (or layout) module loaded when first shown, or earlier through `preload`. If the module
 * cannot be fetched (typically: a new release replaced the hashed files), the page reloads once
 * to pick up the new build; a second failure reaches the error screen.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): LazyPage {
  let loading: Promise<{ default: ComponentType }> | undefined
  const start = () => {
    loading ??= (async () => {
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
    })()
    return loading
  }
  return Object.assign(lazy(start), {
    // A failure shows when the page renders and React awaits the same promise.
    preload: () =>
      start().then(
        () => {},
        () => {},
      ),
  })
}
