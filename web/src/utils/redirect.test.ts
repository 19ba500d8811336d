import { describe, expect, it } from 'vitest'
import { safeRedirect } from './redirect'

describe(safeRedirect, () => {
  it.each([
    ['/games/3/challenges', '/games/3/challenges'],
    ['/account/confirm?token=abc&email=ZA%3D%3D', '/account/confirm?token=abc&email=ZA%3D%3D'],
    ['/', '/'],
    ['/posts#latest', '/posts#latest'],
  ])('keeps the same-site path %s', (from, expected) => {
    expect(safeRedirect(from)).toBe(expected)
  })

  it.each([
    [null],
    [undefined],
    [''],
    ['//evil.example/path'],
    ['/\\evil.example'],
    ['https://evil.example/'],
    ['javascript:alert(1)'],
    ['games'],
    ['/\t/evil.example'],
    ['/ /evil.example'],
    ['\n/games'],
  ])('sends %j home instead', (from) => {
    expect(safeRedirect(from)).toBe('/')
  })

  it('uses the given fallback', () => {
    expect(safeRedirect('//x', '/account/profile')).toBe('/account/profile')
  })
})
