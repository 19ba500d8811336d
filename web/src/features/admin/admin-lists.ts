/**
 * Small pure rules shared by the admin Users, Teams, Logs and Files screens: paging, search
 * text, colours for roles, log levels and task statuses, hashes and asset links.
 */
import type { Role } from '@/api/types'

/** Page size of the Users and Teams lists. */
export const PEOPLE_PAGE = 30
/** Page size of the Logs and Files lists. */
export const RECORD_PAGE = 50
/** The most matches a search returns (server side). */
export const SEARCH_LIMIT = 30

/** `skip` for a 1-based page. */
export const skipOf = (page: number, size: number) => Math.max(0, page - 1) * size

/** How many pages `total` items fill (at least one, so a pager always has a page to show). */
export const pageCount = (total: number, size: number) => Math.max(1, Math.ceil(Math.max(0, total) / size))

/**
 * Whether a list without a total (the log) may have a next page: a full page came back, so
 * there may be more (the following page can then be empty).
 */
export const mayHaveMore = (received: number, size: number) => received >= size

/** The hint sent to a search route, or null to page instead (blank text). */
export function searchHint(text: string): string | null {
  const hint = text.trim()
  return hint ? hint.slice(0, 128) : null
}

export const ROLE_COLOR: Record<Role, string> = {
  Admin: 'grape',
  Monitor: 'blue',
  User: 'teal',
  Banned: 'red',
}

/** The log levels the server stores, most severe last; `All` is the filter for every level. */
export const LOG_LEVELS = ['All', 'Information', 'Warning', 'Error', 'Fatal'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export function levelColor(level: string | null | undefined): string {
  switch (level) {
    case 'Information':
      return 'blue'
    case 'Warning':
      return 'yellow'
    case 'Error':
      return 'red'
    case 'Fatal':
      return 'grape'
    default:
      return 'gray'
  }
}

/** A `TaskStatus` name's colour: success green, failure and denial red, the rest grey. */
export function statusColor(status: string | null | undefined): string {
  switch (status) {
    case 'Success':
      return 'teal'
    case 'Failed':
    case 'Denied':
      return 'red'
    default:
      return 'gray'
  }
}

/** A content hash short enough for a table cell; the full one is copied. */
export const shortHash = (hash: string) => (hash.length > 12 ? `${hash.slice(0, 12)}…` : hash)

/** Where a stored file is downloaded: `/assets/<hash>/<name>` (the name only sets the download name). */
export const assetUrl = (hash: string, name: string) =>
  `/assets/${encodeURIComponent(hash)}/${encodeURIComponent(name || 'file')}`

/** The address the server records before a user's first visit. */
export const NO_IP = '0.0.0.0'

/**
 * Stable React keys for log records, which have no id: their content, with a counter for
 * records that are identical (same second, user, address and message).
 */
export function logKeys(
  entries: readonly { time: number; name?: string | null; ip?: string | null; msg?: string | null }[],
): string[] {
  const seen = new Map<string, number>()
  return entries.map((e) => {
    const base = `${e.time}|${e.name ?? ''}|${e.ip ?? ''}|${e.msg ?? ''}`
    const n = seen.get(base) ?? 0
    seen.set(base, n + 1)
    return n ? `${base}#${n}` : base
  })
}
