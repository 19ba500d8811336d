import { describe, expect, it } from 'vitest'
import { resolveUrl } from './url'

describe(resolveUrl, () => {
  it('fills path parameters and encodes them', () => {
    expect(
      resolveUrl('/api/game/{id}/challenges/{challengeId}', { path: { id: 3, challengeId: 'a/b' } }),
    ).toBe('/api/game/3/challenges/a%2Fb')
  })

  it('appends only the query values that are set', () => {
    expect(resolveUrl('/api/game', { query: { count: 12, skip: 0, q: undefined, r: '' } })).toBe(
      '/api/game?count=12&skip=0',
    )
  })

  it('refuses to build a URL with a missing parameter', () => {
    expect(() => resolveUrl('/api/team/{id}')).toThrow(/missing path parameter id/)
  })
})
