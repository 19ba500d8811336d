import { describe, expect, it } from 'vitest'
import {
  chartWindow,
  fittingTicks,
  linearScale,
  niceCeil,
  scoreTicks,
  stepPath,
  timeTicks,
} from './chart-scale'

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

describe(chartWindow, () => {
  const hour = 3_600_000
  const start = Date.UTC(2026, 10, 27, 8)
  const end = start + 48 * hour

  it('spans from the start to now while the game runs', () => {
    expect(chartWindow(start, end, start + 3 * hour)).toEqual([start, start + 3 * hour])
  })

  it('shows at least ten minutes in the first minutes', () => {
    expect(chartWindow(start, end, start + 60_000)).toEqual([start, start + 10 * 60_000])
  })

  it('spans the whole game once it is over, and before it starts', () => {
    expect(chartWindow(start, end, end + hour)).toEqual([start, end])
    expect(chartWindow(start, end, start - hour)).toEqual([start, end])
  })
})

describe(fittingTicks, () => {
  it('gives fewer intervals when the labels would run into each other', () => {
    // 5 labels of 100 px need 750 px with their gaps: 4 intervals fit in 800, 2 in 500.
    expect(fittingTicks(800, 100, 4)).toBe(4)
    expect(fittingTicks(500, 100, 4)).toBe(2)
    expect(fittingTicks(100, 100, 4)).toBe(1)
  })
})
