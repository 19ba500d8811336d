import { describe, expect, it } from 'vitest'
import { curvePath, curveSpan, scoreCurve } from './score-curve'

describe(scoreCurve, () => {
  it("follows the engine's values (1000, 0.25, 5)", () => {
    const curve = scoreCurve(1000, 0.25, 5, 10)
    const at = (n: number) => curve[n - 1]!.score
    expect(curve).toHaveLength(10)
    expect(curve[0]).toEqual({ solves: 1, score: 1000 })
    expect([at(2), at(3), at(5), at(10)]).toEqual([864, 752, 586, 373])
  })
})

describe(curveSpan, () => {
  it('spans about four difficulties, within 10 and 200', () => {
    expect(curveSpan(5)).toBe(20)
    expect(curveSpan(1)).toBe(10)
    expect(curveSpan(0)).toBe(10)
    expect(curveSpan(1000)).toBe(200)
  })
})

describe(curvePath, () => {
  it('maps the first point to the left edge and the full score to the top', () => {
    const path = curvePath(
      [
        { solves: 1, score: 100 },
        { solves: 3, score: 50 },
      ],
      200,
      100,
      100,
    )
    expect(path).toBe('M0.0 0.0 L200.0 50.0')
    expect(curvePath([], 10, 10, 10)).toBe('')
  })
})
