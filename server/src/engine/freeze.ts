/** A game's freeze settings, as stored (games.freezeAt / revealAt). */
export interface FreezeTimes {
  freezeAt: Date | null
  revealAt: Date | null
}

/**
 * When the public board stopped moving (epoch ms), or null when it shows the truth now: the
 * `freeze` switch is on, the game has a freeze time that has come, and no reveal has come since.
 * A game that ended while frozen stays frozen until the reveal (the award ceremony).
 */
export function frozenSince(game: FreezeTimes, switchOn: boolean, now: number): number | null {
  if (!switchOn || !game.freezeAt) return null
  const at = game.freezeAt.getTime()
  if (now < at) return null
  if (game.revealAt && game.revealAt.getTime() >= at && now >= game.revealAt.getTime()) return null
  return at
}

/** Admins and monitors see the true board throughout a freeze. */
export const seesThroughFreeze = (actor: { role: number } | null | undefined) => (actor?.role ?? 0) >= 2

/** Blood notices: posted by the judge, they tell who solved what, so a freeze holds them back. */
export const BLOOD_NOTICES = new Set(['FirstBlood', 'SecondBlood', 'ThirdBlood'])
