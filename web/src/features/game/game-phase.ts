/** Where a game is in its life, derived from its times only (game-engine §2.1). */
export type GamePhase = 'upcoming' | 'ongoing' | 'ended'

export function gamePhase(start: number, end: number, now: number): GamePhase {
  if (now < start) return 'upcoming'
  if (now > end) return 'ended'
  return 'ongoing'
}

/** How much of the game has passed, 0 to 1. */
export function gameProgress(start: number, end: number, now: number): number {
  if (end <= start) return now >= end ? 1 : 0
  return Math.min(1, Math.max(0, (now - start) / (end - start)))
}

/** Length of a game in whole hours (rounded), as the game cards show it. */
export const durationHours = (start: number, end: number) =>
  Math.max(0, Math.round((end - start) / 3_600_000))
