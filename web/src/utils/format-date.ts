import { getLanguage } from '@/i18n'

/** Dates and times in the interface language, from the API's epoch milliseconds. */
export function formatDateTime(ms: number, options: Intl.DateTimeFormatOptions = {}): string {
  return new Intl.DateTimeFormat(getLanguage(), {
    dateStyle: 'medium',
    timeStyle: 'short',
    ...options,
  }).format(ms)
}

export function formatDate(ms: number, style: 'short' | 'medium' | 'long' = 'medium'): string {
  return new Intl.DateTimeFormat(getLanguage(), { dateStyle: style }).format(ms)
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
