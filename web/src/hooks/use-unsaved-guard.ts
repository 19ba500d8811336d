import { useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import { type ConfirmOptions, confirm } from '@/components/confirm'

/**
 * Warns before unsaved edits are lost: the browser's own prompt on reload or close, and a
 * confirmation (with the caller's wording) on any link inside the app. The declarative router
 * has no navigation blocker, so link clicks are caught on the document before the router sees
 * them.
 */
export function useUnsavedGuard(dirty: boolean, question: ConfirmOptions) {
  const navigate = useNavigate()
  // The texts may be rebuilt on every render; only `dirty` should re-arm the listeners.
  const texts = useRef(question)
  texts.current = question

  useEffect(() => {
    if (!dirty) return
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      // Older browsers need a returnValue to show the prompt.
      event.returnValue = ''
    }
    const click = (event: MouseEvent) => {
      if (
        event.defaultPrevented ||
        event.button !== 0 ||
        event.metaKey ||
        event.ctrlKey ||
        event.shiftKey ||
        event.altKey
      )
        return
      const link = (event.target as Element | null)?.closest?.('a[href]') as HTMLAnchorElement | null
      if (!link || link.target === '_blank' || link.hasAttribute('download')) return
      const url = new URL(link.href, location.href)
      if (url.origin !== location.origin) return
      const to = url.pathname + url.search + url.hash
      if (to === location.pathname + location.search + location.hash) return
      event.preventDefault()
      event.stopPropagation()
      void confirm({ danger: true, ...texts.current }).then((leave) => {
        if (leave) navigate(to)
      })
    }
    window.addEventListener('beforeunload', beforeUnload)
    document.addEventListener('click', click, true)
    return () => {
      window.removeEventListener('beforeunload', beforeUnload)
      document.removeEventListener('click', click, true)
    }
  }, [dirty, navigate])
}
