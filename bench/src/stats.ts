/**
 * The median: the middle value, or the mean of the two middle values of an even count (of 10
 * solves, the mean of the 5th and 6th, not the 6th). NaN for no values.
 */
export function median(xs: readonly number[]): number {
  if (!xs.length) return Number.NaN
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
