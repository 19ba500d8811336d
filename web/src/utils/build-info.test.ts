import { describe, expect, it } from 'vitest'
import { isValidBuildInfo } from './build-info'

const good = {
  sha: 'a'.repeat(40),
  rawTag: 'v1.6.2',
  timestamp: '2025-10-04T08:00:00Z',
  buildTime: '2025-10-04T08:00:00Z',
  repo: 'https://example.org/pennant',
}

describe(isValidBuildInfo, () => {
  it('accepts a tagged release build', () => {
    expect(isValidBuildInfo(good)).toBe(true)
  })

  it('accepts develop and a tag with a suffix', () => {
    expect(isValidBuildInfo({ ...good, rawTag: 'develop' })).toBe(true)
    expect(isValidBuildInfo({ ...good, rawTag: 'v2.0.0-12-gabcdef' })).toBe(true)
  })

  it.each([
    ['a short sha', { sha: 'abc' }],
    ['a timestamp of the wrong length', { timestamp: '2025-10-04' }],
    ['an unparsable build time', { buildTime: 'yesterday' }],
    ['a tag that is not a version', { rawTag: 'nightly' }],
    ['a tag without the v', { rawTag: '1.6.2' }],
  ])('rejects %s', (_, change) => {
    expect(isValidBuildInfo({ ...good, ...change })).toBe(false)
  })

  it('rejects missing info', () => {
    expect(isValidBuildInfo(null)).toBe(false)
    expect(isValidBuildInfo({})).toBe(false)
  })
})
