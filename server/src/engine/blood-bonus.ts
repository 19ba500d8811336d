/**
 * Blood bonus (game-engine §4.2): three per-mille bonuses for first, second and third blood,
 * packed in one integer as `first << 20 | second << 10 | third`, each 0..1000.
 */
export const DEFAULT_BLOOD_BONUS = 52459530 // +5 %, +3 %, +1 %
const MASK = 1023
const BASE = 1000

export type BloodRank = 1 | 2 | 3

/** The three per-mille parts, or null when the value is not a valid packing. */
export function unpackBloodBonus(value: number): [number, number, number] | null {
  if (!Number.isSafeInteger(value) || value < 0 || value >= 2 ** 30) return null
  const parts: [number, number, number] = [(value >> 20) & MASK, (value >> 10) & MASK, value & MASK]
  return parts.every((p) => p <= BASE) ? parts : null
}

export function packBloodBonus(first: number, second: number, third: number): number {
  return first * 2 ** 20 + second * 2 ** 10 + third
}

/** An invalid packed value falls back to the default, as upstream does. */
export const normaliseBloodBonus = (value: number) => (unpackBloodBonus(value) ? value : DEFAULT_BLOOD_BONUS)

/** Banker's rounding: halves go to the even neighbour. */
function roundHalfEven(x: number): number {
  const floor = Math.floor(x)
  const diff = x - floor
  if (diff > 0.5) return floor + 1
  if (diff < 0.5) return floor
  return floor % 2 === 0 ? floor : floor + 1
}

/**
 * Points for a solve: the challenge score, times the blood factor for ranks 1 to 3. Computed in
 * 32-bit floats with round-half-even to match upstream exactly (decisions.md item 14):
 * 250 × 1.01 = 252.5 → 252.
 */
export function awardedScore(score: number, bloodBonus: number, rank: BloodRank | null): number {
  if (!rank || bloodBonus === 0) return score
  const parts = unpackBloodBonus(normaliseBloodBonus(bloodBonus))!
  const factor = Math.fround(Math.fround(parts[rank - 1]! / BASE) + 1)
  return roundHalfEven(Math.fround(score * factor))
}

/** How the bonus reads to people: per-mille / 10, as `+5%`. */
export const bloodBonusLabel = (permille: number) => `+${permille / 10}%`
