import { describe, expect, it } from 'vitest'
import { durationHours, gameProgress } from './game-time'

describe(gameProgress, () => {
  it('grows from 0 to 1 over the game and stays inside those bounds', () => {
    expect(gameProgress(100, 200, 50)).toBe(0)
    expect(gameProgress(100, 200, 150)).toBe(0.5)
    expect(gameProgress(100, 200, 500)).toBe(1)
  })

  it('handles a game without length', () => {
    expect(gameProgress(100, 100, 99)).toBe(0)
    expect(gameProgress(100, 100, 100)).toBe(1)
  })
})

describe(durationHours, () => {
  it('rounds to whole hours', () => {
    expect(durationHours(0, 36 * 3_600_000)).toBe(36)
    expect(durationHours(0, 90 * 60_000)).toBe(2)
  })
})
