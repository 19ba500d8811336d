/** Where a game stands relative to `now`, from its epoch-millisecond start and end. */
export type GamePhase = 'upcoming' | 'running' | 'ended'

export function gamePhase(game: { start: number; end: number }, now: number): GamePhase {
  if (now < game.start) return 'upcoming'
  return now < game.end ? 'running' : 'ended'
}
