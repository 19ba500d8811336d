import { describe, expect, it } from 'vitest'
import { formatDuration } from './format-date'

describe(formatDuration, () => {
  it.each([
    [0, '0:00:00'],
    [999, '0:00:00'],
    [61_000, '0:01:01'],
    [3_600_000 * 25 + 5_000, '25:00:05'],
    [-5, '0:00:00'],
  ])('shows %d ms as %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text)
  })
})
