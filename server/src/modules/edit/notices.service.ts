import { and, asc, desc, eq, lt, notInArray, or } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { gameNotices } from '../../db/schema.ts'
import { type NoticeTypeName, NoticeTypeValues, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { Bus } from '../../infra/bus/index.ts'
import { BLOOD_NOTICES, frozenSince } from '../freeze/freeze.ts'
import { requireGame } from '../game/games.queries.ts'

type NoticeRow = typeof gameNotices.$inferSelect

export const presentNotice = (n: NoticeRow) => ({
  id: n.id,
  time: n.publishTimeUtc.getTime(),
  type: nameOf(NoticeTypeValues, n.type),
  values: n.values,
})
export type GameNotice = ReturnType<typeof presentNotice>

/** Game notices: organisers' announcements and the platform's own (bloods, new hints…). */
export function createNoticeService(deps: {
  db: Db
  /** Hears every posted notice (the user hub passes it on to the game's players). */
  bus?: Bus
  /** Whether the `freeze` switch is on: blood notices of a frozen game are kept, not told. */
  freezeOn?: () => boolean
}) {
  const { db } = deps

  async function requireNormal(gameId: number, id: number) {
    const [row] = await db
      .select()
      .from(gameNotices)
      .where(and(eq(gameNotices.id, id), eq(gameNotices.gameId, gameId)))
    if (!row) throw fail('Notification_NotFound')
    if (row.type !== NoticeTypeValues.Normal) throw fail('Notification_SystemNotEditable')
    return row
  }

  return {
    /** Stores a notice and tells whoever listens (the user hub). Edits and deletions are not told. */
    async post(gameId: number, type: NoticeTypeName, values: string[]): Promise<GameNotice> {
      const [row] = await db
        .insert(gameNotices)
        .values({ gameId, type: NoticeTypeValues[type], values, publishTimeUtc: new Date() })
        .returning()
      const notice = presentNotice(row!)
      // A blood during a freeze would tell players who solved what: stored (players read it
      // after the reveal), not pushed.
      if (BLOOD_NOTICES.has(type) && deps.freezeOn?.()) {
        const game = await requireGame(db, gameId)
        if (frozenSince(game, true) !== null) return notice
      }
      deps.bus?.publish('game.notice', { gameId, notice })
      return notice
    },

    /** The organisers' own notices of a game, oldest first. */
    async listNormal(gameId: number): Promise<GameNotice[]> {
      await requireGame(db, gameId)
      const rows = await db
        .select()
        .from(gameNotices)
        .where(and(eq(gameNotices.gameId, gameId), eq(gameNotices.type, NoticeTypeValues.Normal)))
        .orderBy(asc(gameNotices.id))
      return rows.map(presentNotice)
    },

    /**
     * What players read: organiser notices first, then the platform's, newest first; 300 at most.
     * `frozenSince`: the game is frozen for this reader, so blood notices from then on are left out.
     */
    async listForPlayers(gameId: number, frozenSince: number | null = null): Promise<GameNotice[]> {
      const bloods: number[] = [
        NoticeTypeValues.FirstBlood,
        NoticeTypeValues.SecondBlood,
        NoticeTypeValues.ThirdBlood,
      ]
      // Filtered before the limit, so hidden bloods do not push older notices off the list.
      const rows = await db
        .select()
        .from(gameNotices)
        .where(
          and(
            eq(gameNotices.gameId, gameId),
            frozenSince === null
              ? undefined
              : or(
                  notInArray(gameNotices.type, bloods),
                  lt(gameNotices.publishTimeUtc, new Date(frozenSince)),
                ),
          ),
        )
        .orderBy(desc(gameNotices.publishTimeUtc), desc(gameNotices.id))
        .limit(300)
      const normal = rows.filter((n) => n.type === NoticeTypeValues.Normal)
      const system = rows.filter((n) => n.type !== NoticeTypeValues.Normal)
      return [...normal, ...system].map(presentNotice)
    },

    async edit(gameId: number, id: number, content: string): Promise<GameNotice> {
      await requireNormal(gameId, id)
      const [row] = await db
        .update(gameNotices)
        .set({ values: [content], publishTimeUtc: new Date() })
        .where(eq(gameNotices.id, id))
        .returning()
      return presentNotice(row!)
    },

    async remove(gameId: number, id: number): Promise<void> {
      await requireNormal(gameId, id)
      await db.delete(gameNotices).where(eq(gameNotices.id, id))
    },
  }
}
export type NoticeService = ReturnType<typeof createNoticeService>
