import { getLanguage } from '@/i18n'
import { isRightToLeft } from '@/i18n/languages'

const formatters = new Map<string, Intl.DateTimeFormat>()

/**
 * One formatter per language and options: creating an `Intl.DateTimeFormat` costs far more than
 * formatting with it, and a list of posts or notices formats dozens of dates while it renders.
 */
function formatter(options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${getLanguage()} ${JSON.stringify(options)}`
  let format = formatters.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(getLanguage(), options)
    formatters.set(key, format)
  }
  return format
}

/** Dates and times in the interface language, from the API's epoch milliseconds. */
export function formatDateTime(ms: number, options: Intl.DateTimeFormatOptions = {}): string {
  return formatter({ dateStyle: 'medium', timeStyle: 'short', ...options }).format(ms)
}

export function formatDate(ms: number, style: 'short' | 'medium' | 'long' = 'medium'): string {
  return formatter({ dateStyle: style }).format(ms)
}

/**
 * "H:mm:ss" of a duration in milliseconds (countdowns); hours may exceed 24. `padHours` gives
 * "HH:mm:ss", for a clock whose width should not change as it runs down (container lifetimes).
 */
export function formatDuration(ms: number, { padHours = false } = {}): string {
  const total = Math.max(0, Math.floor(ms / 1000))
  const h = Math.floor(total / 3600)
  const m = Math.floor((total % 3600) / 60)
  const s = total % 60
  return `${padHours ? String(h).padStart(2, '0') : h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
}

/** The arrow between a range's start and end, pointing the way the language reads. */
export const rangeArrow = () => (isRightToLeft(getLanguage()) ? ' ← ' : ' → ')
