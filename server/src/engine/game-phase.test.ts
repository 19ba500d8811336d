import { describe, expect, it } from 'vitest'
import { gamePhase, isClosed } from './game-phase.ts'

describe(gamePhase, () => {
  const start = 1_000
  const end = 2_000
  it.each([
    [start - 1, 'upcoming'],
    [start, 'running'],
    [1_500, 'running'],
    [end, 'running'],
    [end + 1, 'ended'],
  ] as const)('at %i the game is %s', (now, phase) => {
    expect(gamePhase(start, end, now)).toBe(phase)
  })

  it('treats a game that starts and ends at once as running at that instant', () => {
    expect(gamePhase(5, 5, 4)).toBe('upcoming')
    expect(gamePhase(5, 5, 5)).toBe('running')
    expect(gamePhase(5, 5, 6)).toBe('ended')
  })
})

describe(isClosed, () => {
  it('closes an ended game unless it is open for practice', () => {
    expect(isClosed('ended', false)).toBe(true)
    expect(isClosed('ended', true)).toBe(false)
    expect(isClosed('running', false)).toBe(false)
    expect(isClosed('upcoming', false)).toBe(false)
  })
})
