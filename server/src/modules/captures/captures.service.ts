import { createReadStream } from 'node:fs'
import { mkdir, readdir, rm, stat } from 'node:fs/promises'
import path from 'node:path'
import { and, asc, eq, inArray } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db } from '../../db/index.ts'
import { challenges, participations, teams } from '../../db/schema.ts'
import { ChallengeCategoryValues, ChallengeTypeValues, nameOf } from '../../http/enums.ts'
import { fail, failWith } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import { tarGz } from '../assets/tar.ts'
import { requireVisibleGame } from '../contest/context.ts'
import { stamp } from '../game/writeups.service.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import { captureDir, createRecorder, partialDir } from '../proxy/recorder.ts'

/** Only names we wrote are ever turned into paths. */
const FILE_NAME = /^[0-9a-f]{8}-[0-9a-z]{1,32}\.pcap$/
const DIR_ID = /^[1-9][0-9]{0,9}$/

/**
 * Traffic captures (game-engine §6.6): the proxy's recorder, writing each connection as a pcap
 * file `capture/<challengeId>/<participationId>/<8 hex of container id>-<connection id>.pcap`
 * under the storage root, and the monitor's view of them (api-contract §2.6).
 */
export function createCaptureService(deps: {
  db: Db
  /** `DATA_DIR/files/capture`. */
  root: string
  log: FastifyBaseLogger
  /** Where a connection's file is written until it is complete (tests point it at /dev/full). */
  tempFile?: () => string
}) {
  const { db, root, log } = deps
  const dirOf = (challengeId: number, partId: number) => captureDir(root, challengeId, partId)

  /** Subfolders named by ids, with how many entries each holds. */
  async function folders(dir: string): Promise<Map<number, string[]>> {
    const out = new Map<number, string[]>()
    let names: string[]
    try {
      names = await readdir(dir)
    } catch {
      return out
    }
    for (const name of names) {
      if (!DIR_ID.test(name)) continue
      try {
        out.set(Number(name), await readdir(path.join(dir, name)))
      } catch {
        // a file, or removed meanwhile
      }
    }
    return out
  }

  /** A challenge's game must be visible to the caller (hidden games: admins only). */
  async function requireChallenge(actor: SessionUser, challengeId: number) {
    const [c] = await db.select().from(challenges).where(eq(challenges.id, challengeId))
    if (!c) throw fail('Game_CaptureNotFound')
    await requireVisibleGame(db, c.gameId, actor)
    return c
  }

  async function files(challengeId: number, partId: number) {
    const dir = dirOf(challengeId, partId)
    let names: string[]
    try {
      names = await readdir(dir)
    } catch {
      return []
    }
    const out: { fileName: string; size: number; updateTime: number; path: string }[] = []
    for (const fileName of names.filter((n) => FILE_NAME.test(n)).sort()) {
      try {
        const s = await stat(path.join(dir, fileName))
        out.push({ fileName, size: s.size, updateTime: s.mtimeMs, path: path.join(dir, fileName) })
      } catch {
        // removed meanwhile
      }
    }
    return out
  }

  const record = createRecorder({ root, log, tempFile: deps.tempFile })

  return {
    record,
    /** Makes the folder for partial files; the proxy must not wait for it per connection. */
    async prepare() {
      if (!deps.tempFile) await mkdir(partialDir(root), { recursive: true })
    },

    /** The game's challenges with capture on, each with its number of team folders. */
    async challenges(actor: SessionUser, gameId: number) {
      // Missing and hidden games are 404, as on every other game route (decisions.md item 9).
      await requireVisibleGame(db, gameId, actor)
      const rows = await db
        .select()
        .from(challenges)
        .where(and(eq(challenges.gameId, gameId), eq(challenges.enableTrafficCapture, true)))
        .orderBy(asc(challenges.id))
      const out = []
      for (const c of rows) {
        const teamsOf = await folders(path.join(root, String(c.id)))
        out.push({
          id: c.id,
          title: c.title,
          category: nameOf(ChallengeCategoryValues, c.category),
          type: nameOf(ChallengeTypeValues, c.type),
          isEnabled: c.isEnabled,
          count: [...teamsOf.values()].filter((f) => f.length > 0).length,
        })
      }
      return out
    },

    /** Teams with captures of a challenge; 404 when there are none. */
    async teams(actor: SessionUser, challengeId: number) {
      await requireChallenge(actor, challengeId)
      const found = [...(await folders(path.join(root, String(challengeId))))].filter(([, f]) => f.length)
      if (!found.length) throw fail('Game_CaptureNotFound')
      const counts = new Map(found.map(([id, f]) => [id, f.filter((n) => FILE_NAME.test(n)).length]))
      const rows = await db
        .select({
          id: participations.id,
          teamId: participations.teamId,
          division: participations.division,
          name: teams.name,
          avatarHash: teams.avatarHash,
        })
        .from(participations)
        .leftJoin(teams, eq(teams.id, participations.teamId))
        .where(inArray(participations.id, [...counts.keys()]))
        .orderBy(asc(participations.id))
      return rows.map((r) => ({
        id: r.id,
        teamId: r.teamId,
        name: r.name,
        division: r.division,
        avatar: avatarUrl(r.avatarHash),
        count: counts.get(r.id) ?? 0,
      }))
    },

    async files(actor: SessionUser, challengeId: number, partId: number) {
      await requireChallenge(actor, challengeId)
      return (await files(challengeId, partId)).map(({ path: _, ...f }) => f)
    },

    /** One file as a stream; 404 when it is not there. */
    async open(actor: SessionUser, challengeId: number, partId: number, fileName: string) {
      await requireChallenge(actor, challengeId)
      if (!FILE_NAME.test(fileName)) throw fail('Game_CaptureNotFound')
      const file = path.join(dirOf(challengeId, partId), fileName)
      try {
        await stat(file)
      } catch {
        throw fail('Game_CaptureNotFound')
      }
      return createReadStream(file)
    },

    /** All of a team's files as one tar.gz. */
    async archive(actor: SessionUser, challengeId: number, partId: number) {
      await requireChallenge(actor, challengeId)
      const list = await files(challengeId, partId)
      return {
        fileName: `Capture-${challengeId}-${partId}-${stamp(new Date())}.tar.gz`,
        stream: tarGz(
          list.map((f) => ({
            name: f.fileName,
            size: f.size,
            mtime: new Date(f.updateTime),
            open: async () => createReadStream(f.path),
          })),
        ),
      }
    },

    async remove(actor: SessionUser, challengeId: number, partId: number, fileName: string) {
      await requireChallenge(actor, challengeId)
      if (!FILE_NAME.test(fileName)) throw fail('Game_CaptureNotFound')
      try {
        await rm(path.join(dirOf(challengeId, partId), fileName))
      } catch {
        throw fail('Game_CaptureNotFound')
      }
    },

    async removeAll(actor: SessionUser, challengeId: number, partId: number) {
      await requireChallenge(actor, challengeId)
      try {
        await rm(dirOf(challengeId, partId), { recursive: true, force: true })
      } catch (err) {
        throw failWith(400, err instanceof Error ? err.message : String(err))
      }
    },
  }
}
export type CaptureService = ReturnType<typeof createCaptureService>
