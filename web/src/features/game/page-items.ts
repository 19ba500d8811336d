/** A page number, or a gap in a long run of pages. */
export type PageItem = number | 'gap'

/**
 * The page buttons to show: the first and last page, the current one with `siblings` on each
 * side, and gaps where pages are left out (a gap never hides a single page).
 */
export function pageItems(current: number, total: number, siblings = 1): PageItem[] {
  const keep = new Set<number>([1, total])
  for (let p = current - siblings; p <= current + siblings; p++) if (p >= 1 && p <= total) keep.add(p)
  const sorted = [...keep].sort((a, b) => a - b)
  const items: PageItem[] = []
  let previous = 0
  for (const p of sorted) {
    if (p - previous === 2) items.push(previous + 1)
    else if (p - previous > 2) items.push('gap')
    items.push(p)
    previous = p
  }
  return items
}
