import { and, asc, desc, eq, lt, notInArray, or } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { gameNotices } from '../../db/schema.ts'
import { BLOOD_NOTICES, frozenSince } from '../../engine/freeze.ts'
import { type NoticeTypeName, NoticeTypeValues, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { requireGame } from '../contest/games.queries.ts'

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
  clock: Clock
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
        .values({ gameId, type: NoticeTypeValues[type], values, publishTimeUtc: deps.clock.date() })
        .returning()
      const notice = presentNotice(row!)
      deps.bus?.publish('game.notice', { gameId, notice })
      return notice
    },

    /** A notice of this game with this type and these values is stored (a retry's check). */
    async has(gameId: number, type: NoticeTypeName, values: string[]): Promise<boolean> {
      const rows = await db
        .select({ values: gameNotices.values })
        .from(gameNotices)
        .where(and(eq(gameNotices.gameId, gameId), eq(gameNotices.type, NoticeTypeValues[type])))
      return rows.some((r) => r.values.length === values.length && r.values.every((v, i) => v === values[i]))
    },

    /**
     * A blood notice from the judge. During a freeze it is neither stored nor pushed: it would
     * tell players who solved what, and even a stored one hidden from them would show as a gap
     * in the notice ids. The reveal posts the bloods held back (`postHeldBloods`).
     */
    async postBlood(gameId: number, type: NoticeTypeName, values: string[]): Promise<GameNotice | null> {
      if (deps.freezeOn?.() && frozenSince(await requireGame(db, gameId), true, deps.clock.now()) !== null)
        return null
      return this.post(gameId, type, values)
    },

    /**
     * After a reveal: the bloods of the true board that have no notice yet, stored at the time
     * of their solve (so they read in order among the others) and pushed to players.
     */
    async postHeldBloods(
      gameId: number,
      bloods: { type: NoticeTypeName; values: string[]; time: number }[],
    ): Promise<number> {
      const stored = await db
        .select({ type: gameNotices.type, values: gameNotices.values })
        .from(gameNotices)
        .where(eq(gameNotices.gameId, gameId))
      const key = (type: number, values: string[]) => `${type}\u0000${values.join('\u0000')}`
      const seen = new Set(stored.map((n) => key(n.type, n.values)))
      let posted = 0
      for (const b of bloods.sort((x, y) => x.time - y.time)) {
        if (!BLOOD_NOTICES.has(b.type) || seen.has(key(NoticeTypeValues[b.type], b.values))) continue
        const [row] = await db
          .insert(gameNotices)
          .values({
            gameId,
            type: NoticeTypeValues[b.type],
            values: b.values,
            publishTimeUtc: new Date(b.time),
          })
          .returning()
        deps.bus?.publish('game.notice', { gameId, notice: presentNotice(row!) })
        posted++
      }
      return posted
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
        .set({ values: [content], publishTimeUtc: deps.clock.date() })
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
