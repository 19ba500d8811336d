import { describe, expect, it } from 'vitest'
import { gamePhase } from './game-phase'

describe(gamePhase, () => {
  const game = { start: 1000, end: 2000 }
  it.each([
    [999, 'upcoming'],
    [1000, 'running'],
    [1999, 'running'],
    [2000, 'ended'],
  ])('at %i the game is %s', (now, phase) => {
    expect(gamePhase(game, now)).toBe(phase)
  })
})
