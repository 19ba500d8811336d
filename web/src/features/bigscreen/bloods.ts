import type { Scoreboard } from '@/features/game/api'

export interface BloodEntry {
  /** `challengeId:place`, stable across reads of the board. */
  key: string
  challenge: string
  team: string
  /** 1, 2 or 3. */
  place: 1 | 2 | 3
  time: number
}

/**
 * Every first, second and third blood on the board, newest first. Read from the public board
 * itself (not the notices), so the big screen shows exactly what the scoreboard shows.
 */
export function latestBloods(challenges: Scoreboard['challenges'], limit = 8): BloodEntry[] {
  const all: BloodEntry[] = []
  for (const list of Object.values(challenges))
    for (const c of list)
      c.bloods.forEach((b, i) => {
        if (b.submitTimeUtc == null || i > 2) return
        all.push({
          key: `${c.id}:${i + 1}`,
          challenge: c.title,
          team: b.name,
          place: (i + 1) as 1 | 2 | 3,
          time: b.submitTimeUtc,
        })
      })
  return all.sort((a, b) => b.time - a.time || a.key.localeCompare(b.key)).slice(0, limit)
}

/** Keys in `now` that were not in `before` (null: the first read, where nothing is new). */
export function freshKeys(before: ReadonlySet<string> | null, now: readonly BloodEntry[]): string[] {
  if (!before) return []
  return now.filter((b) => !before.has(b.key)).map((b) => b.key)
}
