import { and, desc, eq, isNotNull } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { files, participations, teams } from '../../db/schema.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import { type TarEntry, tarGz } from '../assets/tar.ts'
import { requirePlaying } from '../contest/context.ts'
import { requireGame } from '../contest/games.queries.ts'
import { teamHead } from '../team/team.presenters.ts'

export const MAX_WRITEUP_BYTES = 20 * 1024 * 1024

/** `yyyyMMdd-HH.mm.ssZ` in UTC, as upstream names exported files. */
export function stamp(date: Date): string {
  const p = (n: number) => String(n).padStart(2, '0')
  return `${date.getUTCFullYear()}${p(date.getUTCMonth() + 1)}${p(date.getUTCDate())}-${p(date.getUTCHours())}.${p(date.getUTCMinutes())}.${p(date.getUTCSeconds())}Z`
}

/** Writeups: each accepted team hands in one PDF before the deadline (game-engine §2.10). */
export function createWriteupService(deps: { db: Db; blobs: BlobService; clock: Clock }) {
  const { db, blobs, clock } = deps
  return {
    async info(actor: SessionUser, gameId: number) {
      const { game, participation } = await requirePlaying(db, actor, gameId, clock.now(), {
        allowEnded: true,
      })
      const [file] = participation.writeupHash
        ? await db.select().from(files).where(eq(files.hash, participation.writeupHash))
        : []
      return {
        submitted: Boolean(file),
        name: file?.name ?? '#',
        fileSize: file?.fileSize ?? 0,
        note: game.writeupNote,
      }
    },

    async upload(
      actor: SessionUser,
      gameId: number,
      upload: { bytes: Buffer; filename: string; mimetype: string },
    ) {
      // A PDF by type, name and content: the admin viewer opens these files.
      const isPdf =
        upload.mimetype === 'application/pdf' &&
        upload.filename.toLowerCase().endsWith('.pdf') &&
        upload.bytes.subarray(0, 5).toString('latin1') === '%PDF-'
      if (!isPdf) throw fail('File_PdfOnly')
      const now = clock.date()
      const { game, participation } = await requirePlaying(db, actor, gameId, now.getTime(), {
        allowEnded: true,
      })
      if (!game.writeupRequired) throw fail('Game_WriteupNotNeeded')
      if (now.getTime() > game.writeupDeadline.getTime()) throw fail('Game_DeadlineExpired')
      const file = await blobs.store(
        upload.bytes,
        `Writeup-${gameId}-${participation.teamId}-${stamp(now)}.pdf`,
      )
      await db
        .update(participations)
        .set({ writeupHash: file.hash, writeupTimeUtc: now })
        .where(eq(participations.id, participation.id))
      // Released even when the same file came again: storing it took a reference of its own.
      if (participation.writeupHash) await blobs.release(participation.writeupHash)
    },

    /** Every handed-in writeup of a game, newest first. */
    async list(gameId: number) {
      await requireGame(db, gameId)
      const rows = await db
        .select({ p: participations, team: teams, name: files.name, size: files.fileSize })
        .from(participations)
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .innerJoin(files, eq(files.hash, participations.writeupHash))
        .where(and(eq(participations.gameId, gameId), isNotNull(participations.writeupHash)))
        .orderBy(desc(participations.writeupTimeUtc))
      return rows.map(({ p, team, name, size }) => ({
        id: p.id,
        team: {
          ...teamHead(team),
          members: null,
        },
        url: `/assets/${p.writeupHash}/${encodeURIComponent(name)}`,
        uploadTimeUtc: p.writeupTimeUtc?.getTime() ?? 0,
        size,
        hash: p.writeupHash!,
        name,
      }))
    },

    /** All writeups of a game as one `.tar.gz`, with its download name. */
    async archive(gameId: number) {
      const game = await requireGame(db, gameId)
      const base = `Writeups-${game.title}-${stamp(new Date())}`.replace(/[/\\]/g, '_')
      const list = await this.list(gameId)
      const entries: TarEntry[] = list.map((w) => ({
        name: `${base}/${w.name}`,
        size: w.size,
        mtime: new Date(w.uploadTimeUtc),
        open: () => blobs.open(w.hash),
      }))
      return { fileName: `${base}.tar.gz`, stream: tarGz(entries) }
    },
  }
}
export type WriteupService = ReturnType<typeof createWriteupService>
