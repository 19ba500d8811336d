import { describe, expect, it } from 'vitest'
import {
  awardedScore,
  bloodBonusLabel,
  DEFAULT_BLOOD_BONUS,
  normaliseBloodBonus,
  packBloodBonus,
  unpackBloodBonus,
} from './blood-bonus.ts'

describe(unpackBloodBonus, () => {
  it('reads the default 52459530 as 50, 30 and 10 per mille (+5% / +3% / +1%)', () => {
    expect(unpackBloodBonus(DEFAULT_BLOOD_BONUS)).toEqual([50, 30, 10])
    expect(unpackBloodBonus(DEFAULT_BLOOD_BONUS)!.map(bloodBonusLabel)).toEqual(['+5%', '+3%', '+1%'])
  })

  it('round-trips with packBloodBonus', () => {
    expect(packBloodBonus(50, 30, 10)).toBe(DEFAULT_BLOOD_BONUS)
    expect(unpackBloodBonus(packBloodBonus(1000, 0, 7))).toEqual([1000, 0, 7])
  })

  it.each([-1, 1.5, 2 ** 30, packBloodBonus(1001, 0, 0), packBloodBonus(0, 0, 1023)])('refuses %d', (v) => {
    expect(unpackBloodBonus(v)).toBeNull()
    expect(normaliseBloodBonus(v)).toBe(DEFAULT_BLOOD_BONUS)
  })
})

describe(awardedScore, () => {
  it('multiplies in float32 and rounds half to even: 250 × 1.01 = 252', () => {
    expect(awardedScore(250, DEFAULT_BLOOD_BONUS, 3)).toBe(252)
  })

  it.each([
    [1000, 1, 1050],
    [1000, 2, 1030],
    [1000, 3, 1010],
    [864, 1, 907],
    [1000, null, 1000],
  ] as const)('gives %i points at rank %s → %i', (score, rank, expected) => {
    expect(awardedScore(score, DEFAULT_BLOOD_BONUS, rank)).toBe(expected)
  })

  it('adds nothing when the game bonus is 0', () => {
    expect(awardedScore(1000, 0, 1)).toBe(1000)
  })

  it('shows 0.5 per mille as +0.05%', () => {
    expect(bloodBonusLabel(5)).toBe('+0.5%')
  })
})
