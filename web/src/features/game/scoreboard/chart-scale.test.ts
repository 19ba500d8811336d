import { describe, expect, it } from 'vitest'
import { linearScale, niceCeil, scoreTicks, stepPath, timeTicks } from './chart-scale'

describe(linearScale, () => {
  it('maps the domain onto the range, inverted ranges included', () => {
    const sut = linearScale([0, 100], [300, 0])
    expect(sut(0)).toBe(300)
    expect(sut(50)).toBe(150)
    expect(sut(100)).toBe(0)
  })

  it('maps an empty domain to the start of the range', () => {
    expect(linearScale([5, 5], [10, 20])(5)).toBe(10)
  })
})

describe(niceCeil, () => {
  it('rounds up to 1, 2 or 5 times a power of ten', () => {
    expect(niceCeil(0.3)).toBe(0.5)
    expect(niceCeil(3)).toBe(5)
    expect(niceCeil(120)).toBe(200)
    expect(niceCeil(1000)).toBe(1000)
    expect(niceCeil(0)).toBe(1)
  })
})

describe(scoreTicks, () => {
  it('covers the maximum with round steps from zero', () => {
    expect(scoreTicks(1030)).toEqual([0, 500, 1000, 1500])
    expect(scoreTicks(1000, 4)).toEqual([0, 500, 1000])
    expect(scoreTicks(7)).toEqual([0, 2, 4, 6, 8])
  })

  it('still draws an axis when nobody scored', () => {
    expect(scoreTicks(0)).toEqual([0, 1])
  })
})

describe(timeTicks, () => {
  it('spaces the ticks evenly over the window', () => {
    expect(timeTicks(0, 100, 4)).toEqual([0, 25, 50, 75, 100])
    expect(timeTicks(5, 5)).toEqual([5])
  })
})

describe(stepPath, () => {
  const x = (t: number) => t
  const y = (s: number) => 100 - s

  it('starts at zero, steps up at each solve and runs flat to the end', () => {
    const sut = stepPath(
      [
        { time: 10, score: 20 },
        { time: 30, score: 50 },
      ],
      x,
      y,
      0,
      60,
    )
    expect(sut).toBe('M0,100H10V80H30V50H60')
  })

  it('clamps solves outside the window', () => {
    expect(stepPath([{ time: 90, score: 10 }], x, y, 0, 60)).toBe('M0,100H60V90H60')
  })

  it('is a flat line for a team without solves', () => {
    expect(stepPath([], x, y, 0, 60)).toBe('M0,100H60')
  })
})
