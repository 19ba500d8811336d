import { describe, expect, it } from 'vitest'
import { createAdjustableClock, systemClock } from './index.ts'

describe('the adjustable clock', () => {
  it('runs ahead of the real time by what it was moved, and never back', () => {
    const clock = createAdjustableClock()
    const before = Date.now()
    clock.advance(3600_000)
    expect(clock.now()).toBeGreaterThanOrEqual(before + 3600_000)
    expect(clock.now()).toBeLessThan(Date.now() + 3600_000 + 1000)
    expect(clock.date().getTime()).toBeGreaterThanOrEqual(before + 3600_000)
    expect(clock.offset()).toBe(3600_000)
    expect(() => clock.advance(-1)).toThrow(RangeError)
    expect(() => clock.advance(Number.NaN)).toThrow(RangeError)
  })

  it('runs the timers whose time came before advance returns, in order, and only those', () => {
    const clock = createAdjustableClock()
    const ran: string[] = []
    clock.setTimeout(() => ran.push('b'), 20_000).unref()
    clock.setTimeout(() => ran.push('a'), 10_000).unref()
    const late = clock.setTimeout(() => ran.push('late'), 60_000).unref()
    const cleared = clock.setTimeout(() => ran.push('cleared'), 5_000)
    cleared.clear()
    clock.advance(30_000)
    expect(ran).toEqual(['a', 'b'])
    clock.advance(25_000)
    expect(ran).toEqual(['a', 'b'])
    late.clear()
    clock.advance(10_000)
    expect(ran).toEqual(['a', 'b'])
  })

  it('runs a missed interval once, then keeps its period from there', () => {
    const clock = createAdjustableClock()
    let runs = 0
    const every = clock.setInterval(() => runs++, 1000).unref()
    clock.advance(10_500)
    expect(runs).toBe(1)
    // (Real time flows too, so the steps leave it room.)
    clock.advance(500)
    expect(runs).toBe(1)
    clock.advance(500)
    expect(runs).toBe(2)
    every.clear()
    clock.advance(5000)
    expect(runs).toBe(2)
  })

  it('the system clock is the wall clock', () => {
    const before = Date.now()
    expect(systemClock.now()).toBeGreaterThanOrEqual(before)
    expect(systemClock.now()).toBeLessThanOrEqual(Date.now())
  })
})
