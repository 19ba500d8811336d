import { and, gt, isNotNull, lte } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { games } from '../../db/schema.ts'
import type { Scoreboard } from '../../engine/scoreboard.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { NoticeService } from '../edit/notices.service.ts'
import type { ScoreboardService } from '../game/scoreboard.service.ts'

const BLOOD_KINDS = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const
/** Automatic reveals looked at: those that came within this window (the job runs far more often). */
const RECENT_MS = 15 * 60_000

/**
 * What a reveal sets going, by hand or at `revealAt`: the true board rebuilt (so the hub tells
 * players), and the blood notices held back during the freeze posted.
 */
export function createFreezeService(deps: {
  db: Db
  clock: Clock
  scoreboard: ScoreboardService
  notices: NoticeService
  freezeOn: () => boolean
}) {
  /** Reveals already handled by this process (`game:revealAt`). */
  const handled = new Set<string>()

  async function published(gameId: number): Promise<void> {
    await deps.scoreboard.reload(gameId)
    const board = JSON.parse((await deps.scoreboard.get(gameId)).bytes.toString()) as Scoreboard
    await deps.notices.postHeldBloods(
      gameId,
      Object.values(board.challenges)
        .flat()
        .flatMap((c) =>
          c.bloods.map((b, i) => ({
            type: BLOOD_KINDS[i]!,
            values: [b.name, c.title],
            time: b.submitTimeUtc ?? deps.clock.now(),
          })),
        ),
    )
  }

  return {
    /** After an admin's reveal. */
    async revealed(gameId: number, revealAt: number): Promise<void> {
      handled.add(`${gameId}:${revealAt}`)
      await published(gameId)
    },

    /** The timed job: reveals whose time came (posting held bloods is idempotent across replicas). */
    async revealDue(): Promise<number> {
      if (!deps.freezeOn()) return 0
      const now = deps.clock.now()
      const due = await deps.db
        .select({ id: games.id, revealAt: games.revealAt })
        .from(games)
        .where(
          and(
            isNotNull(games.freezeAt),
            lte(games.revealAt, new Date(now)),
            gt(games.revealAt, new Date(now - RECENT_MS)),
          ),
        )
      let count = 0
      for (const g of due) {
        const key = `${g.id}:${g.revealAt!.getTime()}`
        if (handled.has(key)) continue
        handled.add(key)
        await published(g.id)
        count++
      }
      return count
    },
  }
}
export type FreezeService = ReturnType<typeof createFreezeService>
