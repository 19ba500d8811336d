import { describe, expect, it } from 'vitest'
import { commitUrl, repoUrl, versionOf } from './build-links'

const sha = '0123456789abcdef0123456789abcdef01234567'

describe(repoUrl, () => {
  it('keeps an https address without a trailing slash', () => {
    expect(repoUrl({ repo: 'https://github.com/example/pennant/' })).toBe(
      'https://github.com/example/pennant',
    )
  })

  it.each([[''], ['git@github.com:example/pennant'], ['javascript:alert(1)'], ['http://example.org/x']])(
    'refuses %j',
    (repo) => {
      expect(repoUrl({ repo })).toBeNull()
    },
  )
})

describe(commitUrl, () => {
  it('links a full commit id under the repository', () => {
    expect(commitUrl({ repo: 'https://github.com/example/pennant', sha })).toBe(
      `https://github.com/example/pennant/commit/${sha}`,
    )
  })

  it('has no link without a repository or a full commit id', () => {
    expect(commitUrl({ repo: '', sha })).toBeNull()
    expect(commitUrl({ repo: 'https://github.com/example/pennant', sha: 'abc' })).toBeNull()
  })
})

describe(versionOf, () => {
  it.each([
    ['v1.2.3', '1.2.3'],
    ['v1.2.3-rc.1', '1.2.3'],
    ['develop', 'develop'],
    ['develop-20250101', 'develop'],
  ])('shows %s as %s', (rawTag, version) => {
    expect(versionOf({ rawTag })).toBe(version)
  })
})
