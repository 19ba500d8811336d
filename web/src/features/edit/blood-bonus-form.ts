import { DEFAULT_BLOOD_BONUS, packBloodBonus, unpackBloodBonus } from '@engine/blood-bonus.ts'

/** The three blood bonuses as percentages (first, second, third), as organisers type them. */
export type BonusPercents = [number, number, number]

/** Percentages of a packed value (per mille / 10); an invalid packing reads as the default. */
export function bonusToPercents(packed: number): BonusPercents {
  const parts = unpackBloodBonus(packed) ?? unpackBloodBonus(DEFAULT_BLOOD_BONUS)!
  return parts.map((p) => p / 10) as BonusPercents
}

/** Whether a percentage can be stored: 0 to 100 in steps of 0.1 (whole per mille). */
export const isBonusPercent = (p: number) =>
  Number.isFinite(p) && p >= 0 && p <= 100 && Math.abs(p * 10 - Math.round(p * 10)) < 1e-6

/** The packed value of three percentages, or null when one cannot be stored. */
export function percentsToBonus(percents: BonusPercents): number | null {
  if (!percents.every(isBonusPercent)) return null
  const [a, b, c] = percents.map((p) => Math.round(p * 10)) as BonusPercents
  return packBloodBonus(a, b, c)
}
