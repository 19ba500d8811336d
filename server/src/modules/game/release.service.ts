import { and, eq, isNotNull, lte, not } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { challenges, gameNotices, games } from '../../db/schema.ts'
import { NoticeTypeValues } from '../../http/enums.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { presentNotice } from '../edit/notices.service.ts'

/**
 * Scheduled release (our addition): announces challenges whose `openAt` has come. Visibility
 * itself needs no job (every read compares `openAt` with the clock, on every server); this only
 * posts the usual new-challenge notice, once, however many servers run it at the same moment.
 */
export function createReleaseService(deps: {
  db: Db
  clock: Clock
  bus?: Bus
  /** Whether scheduled release is on; while off, openings pass without a notice. */
  scheduled: () => boolean
  /** A challenge opened in this game: its board and cached lookups are rebuilt. */
  onReleased?: (gameId: number) => void
}) {
  const { db } = deps

  return {
    /**
     * Marks every enabled challenge whose opening has come and was not announced, and posts its
     * notice in the same transaction. The conditional UPDATE is the once-only guard: a second
     * server running it at once waits for the first one's row locks, then finds the rows
     * already marked and takes none. A notice is posted only for an opening during the game
     * (before the start, the challenge is simply there when the game begins).
     */
    async releaseDue(now = deps.clock.date()): Promise<number> {
      const post = deps.scheduled()
      const posted = await db.transaction(async (tx) => {
        const due = await tx
          .update(challenges)
          .set({ openNoticed: true })
          .from(games)
          .where(
            and(
              eq(games.id, challenges.gameId),
              eq(challenges.isEnabled, true),
              not(challenges.openNoticed),
              isNotNull(challenges.openAt),
              lte(challenges.openAt, now),
            ),
          )
          .returning({
            gameId: challenges.gameId,
            title: challenges.title,
            openAt: challenges.openAt,
            start: games.startTimeUtc,
            end: games.endTimeUtc,
          })
        const announce = due.filter((d) => post && d.openAt! >= d.start && d.start <= now && now <= d.end)
        if (!announce.length) return { due, notices: [] }
        const notices = await tx
          .insert(gameNotices)
          .values(
            announce.map((d) => ({
              gameId: d.gameId,
              type: NoticeTypeValues.NewChallenge,
              values: [d.title],
              publishTimeUtc: now,
            })),
          )
          .returning()
        return { due, notices }
      })
      // Told after the commit, so no one hears of a notice that was rolled back.
      for (const gameId of new Set(posted.due.map((d) => d.gameId))) deps.onReleased?.(gameId)
      for (const row of posted.notices)
        deps.bus?.publish('game.notice', { gameId: row.gameId, notice: presentNotice(row) })
      return posted.notices.length
    },
  }
}
export type ReleaseService = ReturnType<typeof createReleaseService>
