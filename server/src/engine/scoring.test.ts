import { describe, expect, it } from 'vitest'
import { dynamicScore, minimumScore } from './scoring.ts'

describe(dynamicScore, () => {
  it.each([
    [0, 1000],
    [1, 1000],
    [2, 864],
    [3, 752],
    [5, 586],
    [10, 373],
    [20, 266],
    [50, 250],
  ])('gives %i solves of (1000, 0.25, 5) %i points', (n, score) => {
    expect(dynamicScore(1000, 0.25, 5, n)).toBe(score)
  })

  it('drops straight to the minimum when difficulty is 0', () => {
    expect(dynamicScore(500, 0.5, 0, 2)).toBe(250)
  })

  it('never goes below the minimum', () => {
    expect(dynamicScore(1000, 0.25, 5, 10_000)).toBe(minimumScore(1000, 0.25))
  })
})
