import { useState } from 'react'

/**
 * True once the data has been fetched during this visit. Edit forms wait for it: the page may
 * first paint from the cache kept between visits, and a form that starts from that copy would
 * save stale values over newer ones (or show them as unsaved changes).
 */
export function useSettled({ data, isValidating }: { data?: unknown; isValidating: boolean }): boolean {
  const [settled, setSettled] = useState(false)
  // Updating during render is React's pattern for state derived from a change in props.
  if (!settled && !isValidating && data !== undefined) setSettled(true)
  return settled
}
