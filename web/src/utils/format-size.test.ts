import { describe, expect, it } from 'vitest'
import { formatSize } from './format-size'

describe(formatSize, () => {
  it.each([
    [0, '0 B'],
    [1023, '1023 B'],
    [1024, '1.00 KiB'],
    [1536, '1.50 KiB'],
    [1024 * 1024 - 1, '1024.00 KiB'],
    [1024 * 1024, '1.00 MiB'],
    [5.25 * 1024 * 1024, '5.25 MiB'],
    [3 * 1024 ** 3, '3.00 GiB'],
    [2048 * 1024 ** 3, '2048.00 GiB'],
  ])('shows %d bytes as %s', (bytes, text) => {
    expect(formatSize(bytes)).toBe(text)
  })

  it('treats nonsense as zero bytes', () => {
    expect(formatSize(Number.NaN)).toBe('0 B')
    expect(formatSize(-5)).toBe('0 B')
  })
})
