/**
 * Dynamic challenge score (game-engine §4.1): full value for the first solver, then decaying
 * towards `minScoreRate × originalScore` as more teams solve it. Retroactive for every solver.
 */
export function dynamicScore(
  originalScore: number,
  minScoreRate: number,
  difficulty: number,
  acceptedCount: number,
): number {
  if (acceptedCount <= 1) return originalScore
  // Difficulty 0 would divide by zero: it means "drop to the minimum at once".
  const decay = difficulty === 0 ? 0 : Math.exp((1 - acceptedCount) / difficulty)
  return Math.floor(originalScore * (minScoreRate + (1 - minScoreRate) * decay))
}

/** The lowest score a challenge can reach, as shown to organisers. */
export const minimumScore = (originalScore: number, minScoreRate: number) =>
  Math.floor(originalScore * minScoreRate)
