import { useEffect } from 'react'
import { useConfig } from './api'

/** Sets the document title to "{page} - {platform title}". */
export function usePageTitle(title?: string) {
  const { config } = useConfig()
  const site = config?.title || 'Pennant'
  useEffect(() => {
    document.title = title ? `${title} - ${site}` : site
  }, [title, site])
}
