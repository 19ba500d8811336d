/**
 * Where a game stands, from its times only (game-engine §2.1): upcoming before the start,
 * running from the start to the end with both instants included, ended after the end. The web
 * screens and the server's gates decide it here, so they cannot disagree at an edge.
 */
export type GamePhase = 'upcoming' | 'running' | 'ended'

/** `start`, `end` and `now` in epoch milliseconds. */
export function gamePhase(start: number, end: number, now: number): GamePhase {
  if (now < start) return 'upcoming'
  return now > end ? 'ended' : 'running'
}

/** Ended and not open for practice: playing is refused (game-engine §2.2 step 5; writeups excepted). */
export const isClosed = (phase: GamePhase, practiceMode: boolean) => phase === 'ended' && !practiceMode
