import type { submissions } from '../../db/schema.ts'

type Status = (typeof submissions.$inferSelect)['status']

/** What the status route needs of a submission: whose it is, where, and how it stands. */
export interface KnownSubmission {
  userId: string | null
  gameId: number
  challengeId: number
  status: Status
}

/**
 * The submissions this process recorded or judged lately, so that a player polling for a
 * verdict is answered without the database: the submit remembers its submission as pending,
 * the judge its verdict once committed. Bounded (the oldest entries go first); a submission it
 * does not know is read from the database, as are those of a game whose challenges or teams
 * changed since (`forgetGame`), so a deleted submission is never answered from here.
 */
export function createVerdictMemo(limit = 50_000) {
  const known = new Map<number, KnownSubmission>()
  return {
    remember(id: number, entry: KnownSubmission) {
      // Re-inserted so a judged entry counts as recent.
      known.delete(id)
      known.set(id, entry)
      if (known.size > limit) known.delete(known.keys().next().value!)
    },

    get: (id: number) => known.get(id),

    forgetGame(gameId: number) {
      for (const [id, entry] of known) if (entry.gameId === gameId) known.delete(id)
    },

    forgetAll() {
      known.clear()
    },

    get size() {
      return known.size
    },
  }
}
export type VerdictMemo = ReturnType<typeof createVerdictMemo>
