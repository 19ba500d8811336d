import { describe, expect, it } from 'vitest'
import { bonusToPercents, isBonusPercent, percentsToBonus } from './blood-bonus-form'

describe(bonusToPercents, () => {
  it('reads the default 52459530 as +5 %, +3 %, +1 %', () => {
    expect(bonusToPercents(52459530)).toEqual([5, 3, 1])
  })

  it('reads 0 as no bonus and an invalid packing as the default', () => {
    expect(bonusToPercents(0)).toEqual([0, 0, 0])
    expect(bonusToPercents(1001)).toEqual([5, 3, 1])
    expect(bonusToPercents(-1)).toEqual([5, 3, 1])
  })
})

describe(percentsToBonus, () => {
  it('packs percentages back, round trip included', () => {
    expect(percentsToBonus([5, 3, 1])).toBe(52459530)
    expect(percentsToBonus([0, 0, 0])).toBe(0)
    expect(percentsToBonus([100, 100, 100])).toBe(1000 * 2 ** 20 + 1000 * 2 ** 10 + 1000)
    expect(bonusToPercents(percentsToBonus([12.5, 0.1, 7])!)).toEqual([12.5, 0.1, 7])
  })

  it('refuses values it cannot store', () => {
    expect(percentsToBonus([101, 0, 0])).toBeNull()
    expect(percentsToBonus([-1, 0, 0])).toBeNull()
    expect(percentsToBonus([0.05, 0, 0])).toBeNull()
    expect(percentsToBonus([Number.NaN, 0, 0])).toBeNull()
    expect(isBonusPercent(2.3)).toBe(true)
  })
})
