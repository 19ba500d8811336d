import { and, count, desc, eq, isNotNull } from 'drizzle-orm'
import type { Static } from 'typebox'
import type { Db } from '../../db/index.ts'
import { attachments, challenges, flags, games, participations } from '../../db/schema.ts'
import { normaliseBloodBonus } from '../../engine/blood-bonus.ts'
import { newGameKeys } from '../../engine/keys.ts'
import { gameHashSalt } from '../../engine/team-hash.ts'
import { fail } from '../../http/errors.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import { prepareImage } from '../assets/images.ts'
import { type GameRow, posterUrl, requireGame } from '../contest/games.queries.ts'
import type { GameEditModel, GameInfoModel } from './games.schemas.ts'

type GameEdit = Static<typeof GameEditModel>

export function presentGame(g: GameRow): Static<typeof GameInfoModel> {
  return {
    id: g.id,
    title: g.title,
    hidden: g.hidden,
    summary: g.summary,
    content: g.content,
    acceptWithoutReview: g.acceptWithoutReview,
    writeupRequired: g.writeupRequired,
    inviteCode: g.inviteCode,
    divisions: g.divisions,
    teamMemberCountLimit: g.teamMemberCountLimit,
    containerCountLimit: g.containerCountLimit,
    poster: posterUrl(g.posterHash),
    publicKey: g.publicKey,
    practiceMode: g.practiceMode,
    start: g.startTimeUtc.getTime(),
    end: g.endTimeUtc.getTime(),
    writeupDeadline: g.writeupDeadline.getTime(),
    writeupNote: g.writeupNote,
    bloodBonus: g.bloodBonus,
    freezeAt: g.freezeAt?.getTime() ?? null,
    revealAt: g.revealAt?.getTime() ?? null,
  }
}

/** Request fields → columns; only the fields present (update keeps the rest). */
function columns(input: GameEdit) {
  const set: Partial<typeof games.$inferInsert> = { title: input.title.trim() }
  if (input.hidden !== undefined) set.hidden = input.hidden
  if (input.summary !== undefined) set.summary = input.summary
  if (input.content !== undefined) set.content = input.content
  if (input.acceptWithoutReview !== undefined) set.acceptWithoutReview = input.acceptWithoutReview
  if (input.writeupRequired !== undefined) set.writeupRequired = input.writeupRequired
  if (input.inviteCode !== undefined) set.inviteCode = input.inviteCode?.trim() || null
  if (input.divisions !== undefined && input.divisions !== null) {
    set.divisions = [...new Set(input.divisions.map((d) => d.trim()).filter(Boolean))]
  }
  if (input.teamMemberCountLimit !== undefined) set.teamMemberCountLimit = input.teamMemberCountLimit
  if (input.containerCountLimit !== undefined) set.containerCountLimit = input.containerCountLimit
  if (input.practiceMode !== undefined) set.practiceMode = input.practiceMode
  set.startTimeUtc = new Date(input.start)
  set.endTimeUtc = new Date(input.end)
  if (input.writeupDeadline !== undefined) set.writeupDeadline = new Date(input.writeupDeadline)
  if (input.writeupNote !== undefined) set.writeupNote = input.writeupNote
  if (input.bloodBonus !== undefined) set.bloodBonus = normaliseBloodBonus(input.bloodBonus)
  if (set.endTimeUtc.getTime() <= set.startTimeUtc.getTime()) throw fail('Game_TimeInvalid')
  if (input.freezeAt !== undefined) set.freezeAt = input.freezeAt === null ? null : new Date(input.freezeAt)
  if (input.revealAt !== undefined) set.revealAt = input.revealAt === null ? null : new Date(input.revealAt)
  return set
}

/** The freeze lies within start..end (before the end) and the reveal after it (Pennant addition). */
function checkFreeze(g: Pick<GameRow, 'startTimeUtc' | 'endTimeUtc' | 'freezeAt' | 'revealAt'>) {
  if (!g.freezeAt) return
  const at = g.freezeAt.getTime()
  if (at < g.startTimeUtc.getTime() || at >= g.endTimeUtc.getTime()) throw fail('Game_FreezeTimeInvalid')
  if (g.revealAt && g.revealAt.getTime() <= at) throw fail('Game_FreezeTimeInvalid')
}

/** Organisers' side of games (api-contract §2.5 "Games"). */
export function createEditGameService(deps: {
  db: Db
  clock: Clock
  blobs: BlobService
  /** Stops the game's containers before it is deleted. */
  removeContainers: (gameId: number) => Promise<void>
  onChanged?: (gameId: number) => void
}) {
  const { db, blobs } = deps
  return {
    async list(page: { count: number; skip: number }) {
      const rows = await db.select().from(games).orderBy(desc(games.id)).limit(page.count).offset(page.skip)
      const [total] = await db.select({ n: count() }).from(games)
      return { data: rows.map(presentGame), length: rows.length, total: total?.n ?? 0 }
    },

    get: async (id: number) => presentGame(await requireGame(db, id)),

    async create(input: GameEdit) {
      const keys = newGameKeys()
      const set = columns(input)
      checkFreeze({ freezeAt: null, revealAt: null, ...set } as GameRow)
      const [row] = await db
        .insert(games)
        .values({
          ...set,
          title: input.title.trim(),
          startTimeUtc: new Date(input.start),
          endTimeUtc: new Date(input.end),
          writeupDeadline: new Date(input.writeupDeadline ?? deps.clock.now()),
          publicKey: keys.publicKey,
          privateKey: keys.privateKey,
        })
        .returning()
      return presentGame(row!)
    },

    async update(id: number, input: GameEdit) {
      const current = await requireGame(db, id)
      // Checked against the times the game will have (fields left out keep theirs).
      const set = columns(input)
      checkFreeze({ ...current, ...set })
      const [row] = await db.update(games).set(set).where(eq(games.id, id)).returning()
      deps.onChanged?.(id)
      return presentGame(row!)
    },

    /** Removes the game with everything hanging off it, and lets go of its files. */
    async remove(id: number): Promise<void> {
      const game = await requireGame(db, id)
      await deps.removeContainers(id)
      const held = await db.transaction(async (tx) => {
        const files = [game.posterHash]
        const challengeFiles = await tx
          .select({ hash: attachments.fileHash, id: attachments.id })
          .from(challenges)
          .innerJoin(attachments, eq(attachments.id, challenges.attachmentId))
          .where(eq(challenges.gameId, id))
        const flagFiles = await tx
          .select({ hash: attachments.fileHash, id: attachments.id })
          .from(flags)
          .innerJoin(challenges, eq(challenges.id, flags.challengeId))
          .innerJoin(attachments, eq(attachments.id, flags.attachmentId))
          .where(eq(challenges.gameId, id))
        const writeups = await tx
          .select({ hash: participations.writeupHash })
          .from(participations)
          .where(eq(participations.gameId, id))
        await tx.delete(games).where(eq(games.id, id))
        for (const a of [...challengeFiles, ...flagFiles])
          await tx.delete(attachments).where(eq(attachments.id, a.id))
        return [
          ...files,
          ...challengeFiles.map((a) => a.hash),
          ...flagFiles.map((a) => a.hash),
          ...writeups.map((w) => w.hash),
        ]
      })
      for (const hash of held) await blobs.release(hash)
      deps.onChanged?.(id)
    },

    async setPoster(id: number, bytes: Buffer): Promise<string> {
      const game = await requireGame(db, id)
      const image = await prepareImage(bytes, {})
      const file = await blobs.store(image.bytes, `poster.${image.ext}`)
      await db.update(games).set({ posterHash: file.hash }).where(eq(games.id, id))
      if (game.posterHash) await blobs.release(game.posterHash)
      return `/assets/${file.hash}/poster.${image.ext}`
    },

    async deleteWriteups(id: number): Promise<void> {
      await requireGame(db, id)
      const held = await db
        .select({ hash: participations.writeupHash })
        .from(participations)
        .where(and(eq(participations.gameId, id), isNotNull(participations.writeupHash)))
      await db
        .update(participations)
        .set({ writeupHash: null, writeupTimeUtc: null })
        .where(eq(participations.gameId, id))
      for (const { hash } of held) await blobs.release(hash)
    },

    /** Publishes the true board of a frozen game now (Pennant addition, the freeze's reveal). */
    async reveal(id: number, frozen: (game: GameRow) => boolean) {
      const game = await requireGame(db, id)
      if (!frozen(game)) throw fail('Game_NotFrozen')
      const [row] = await db
        .update(games)
        .set({ revealAt: deps.clock.date() })
        .where(eq(games.id, id))
        .returning()
      deps.onChanged?.(id)
      return presentGame(row!)
    },

    hashSalt: async (id: number) => gameHashSalt((await requireGame(db, id)).privateKey),
  }
}
export type EditGameService = ReturnType<typeof createEditGameService>
