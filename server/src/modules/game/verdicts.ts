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
export function createVerdictMemo(limit = 50_000, maxWaiting = 20_000) {
  const known = new Map<number, KnownSubmission>()
  /** Polls held until their submission's verdict: wake-ups by submission id. */
  const waiting = new Map<number, (() => void)[]>()
  let held = 0
  return {
    remember(id: number, entry: KnownSubmission) {
      // Re-inserted so a judged entry counts as recent.
      known.delete(id)
      known.set(id, entry)
      if (known.size > limit) known.delete(known.keys().next().value!)
      if (entry.status !== 'FlagSubmitted') {
        const wake = waiting.get(id)
        waiting.delete(id)
        for (const w of wake ?? []) w()
      }
    },

    get: (id: number) => known.get(id),

    /**
     * Resolves once a verdict for the submission is remembered, or after `ms`: a player who
     * asks while the flag is being judged gets the verdict as soon as it is made, in one poll,
     * instead of polling again and again. False at once when too many polls are held already.
     */
    settled(id: number, ms: number): Promise<boolean> {
      if (held >= maxWaiting) return Promise.resolve(false)
      held++
      return new Promise((resolve) => {
        const wake = () => {
          clearTimeout(timer)
          held--
          resolve(true)
        }
        const timer = setTimeout(() => {
          const list = waiting.get(id)
          const at = list?.indexOf(wake) ?? -1
          if (at >= 0) list!.splice(at, 1)
          if (list?.length === 0) waiting.delete(id)
          wake()
        }, ms)
        const list = waiting.get(id)
        if (list) list.push(wake)
        else waiting.set(id, [wake])
      })
    },

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
