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

  it('pads the hours on request', () => {
    expect(formatDuration(5 * 60_000, { padHours: true })).toBe('00:05:00')
    expect(formatDuration(3_600_000 * 25, { padHours: true })).toBe('25:00:00')
  })
})
