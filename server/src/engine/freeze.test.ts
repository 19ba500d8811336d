import { describe, expect, it } from 'vitest'
import { frozenSince } from './freeze.ts'

const at = (ms: number | null) => (ms === null ? null : new Date(ms))
const game = (freezeAt: number | null, revealAt: number | null = null) => ({
  freezeAt: at(freezeAt),
  revealAt: at(revealAt),
})

describe(frozenSince, () => {
  it('is the freeze time from then on, while the switch is on and no reveal has come', () => {
    expect(frozenSince(game(1000), true, 999)).toBeNull()
    expect(frozenSince(game(1000), true, 1000)).toBe(1000)
    expect(frozenSince(game(1000), true, 10 ** 12)).toBe(1000)
    expect(frozenSince(game(1000), false, 2000)).toBeNull()
    expect(frozenSince(game(null), true, 2000)).toBeNull()
  })

  it('ends at the reveal; a reveal time before the freeze does not count', () => {
    expect(frozenSince(game(1000, 3000), true, 2999)).toBe(1000)
    expect(frozenSince(game(1000, 3000), true, 3000)).toBeNull()
    expect(frozenSince(game(1000, 500), true, 2000)).toBe(1000)
  })
})
