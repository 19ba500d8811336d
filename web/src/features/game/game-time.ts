/** How much of the game has passed, 0 to 1. */
export function gameProgress(start: number, end: number, now: number): number {
  if (end <= start) return now >= end ? 1 : 0
  return Math.min(1, Math.max(0, (now - start) / (end - start)))
}

/** Length of a game in whole hours (rounded), as the game cards show it. */
export const durationHours = (start: number, end: number) =>
  Math.max(0, Math.round((end - start) / 3_600_000))
