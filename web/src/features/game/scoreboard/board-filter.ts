import type { ChallengeCategory } from '@/api/types'

interface Row {
  name: string
  division: string | null
}

export interface BoardQuery {
  /** `all`, or one division's name. */
  division: string
  /** Part of a team name (case-insensitive). */
  search: string
}

/** The rows of one division whose name contains the search text, in board order. */
export function filterBoard<T extends Row>(items: readonly T[], { division, search }: BoardQuery): T[] {
  const needle = search.trim().toLocaleLowerCase()
  return items.filter(
    (item) =>
      (division === 'all' || item.division === division) &&
      (!needle || item.name.toLocaleLowerCase().includes(needle)),
  )
}

/** The rows of page `page` (from 1) of `size` rows, and the page count. */
export function pageOf<T>(items: readonly T[], page: number, size: number): { rows: T[]; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size))
  const current = Math.min(Math.max(1, page), pages)
  return { rows: items.slice((current - 1) * size, current * size), pages }
}

/** The page that holds the row at `index` (from 0). */
export const pageOfIndex = (index: number, size: number) => Math.floor(Math.max(0, index) / size) + 1

/** The divisions to choose from: the timelines' keys except `all`, in order, plus any on the rows. */
export function divisionsOf(timeLineKeys: readonly string[], items: readonly Row[]): string[] {
  const seen = new Set(timeLineKeys.filter((k) => k !== 'all'))
  for (const item of items) if (item.division) seen.add(item.division)
  return [...seen]
}

export interface ColumnGroup<C> {
  category: ChallengeCategory
  challenges: C[]
}

/** The challenge columns grouped by category, in the board's order, skipping empty groups. */
export function columnGroups<C>(challenges: Record<string, C[]>): ColumnGroup<C>[] {
  return Object.entries(challenges)
    .filter(([, list]) => list.length > 0)
    .map(([category, list]) => ({ category: category as ChallengeCategory, challenges: list }))
}
