const UNITS = ['KiB', 'MiB', 'GiB'] as const

/** Bytes as the seed (section 9) shows them: B below 1 KiB, then KiB, MiB, GiB with two decimals. */
export function formatSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`
  let value = bytes / 1024
  let unit = 0
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024
    unit++
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`
}
