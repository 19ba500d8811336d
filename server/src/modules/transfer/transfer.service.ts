import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import {
  attachments,
  challenges,
  files,
  flags,
  gameInstances,
  gameNotices,
  games,
  participations,
  submissions,
  teamMembers,
  teams,
  userParticipations,
  users,
} from '../../db/schema.ts'
import { normaliseBloodBonus } from '../../engine/blood-bonus.ts'
import { newGameKeys, signTeamToken } from '../../engine/keys.ts'
import {
  ChallengeCategoryValues,
  ChallengeTypeValues,
  isContainerType,
  isDynamicType,
  NoticeTypeValues,
  nameOf,
} from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { BlobStorage } from '../../infra/storage/index.ts'
import { type ArchiveLimits, openZip, type ZipReader } from '../assets/zip-reader.ts'
import { requireGame } from '../contest/games.queries.ts'
import { type ArchiveEntry, defaultLimits, writeArchive } from './archive.ts'
import {
  type AttachmentRef,
  blobEntry,
  FORMAT,
  MANIFEST_NAME,
  type Manifest,
  manifestProblem,
  VERSION,
} from './manifest.ts'

/** Something the admin should know before importing; `code` names it for the client's words. */
export interface TransferWarning {
  code: 'DynamicFlagsChange' | 'ContainerImages' | 'RemoteAttachments' | 'TeamsLeftOut' | 'TeamsNotFound'
  values: string[]
}

export interface ImportPreview {
  title: string
  full: boolean
  challenges: number
  flags: number
  attachments: number
  notices: number
  files: number
  /** The archive's size and what it unpacks to, in bytes. */
  size: number
  unpackedSize: number
  /** Full archives: teams and submissions in the archive, and how many this import would take. */
  teams: number
  submissions: number
  teamsMatched: number
  submissionsImported: number
  warnings: TransferWarning[]
}

const BLOOD_TYPES = [NoticeTypeValues.FirstBlood, NoticeTypeValues.SecondBlood, NoticeTypeValues.ThirdBlood]
/** The SHA-256 of a stream's bytes, read a chunk at a time. */
async function streamedSha256(stream: Readable): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of stream) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
const ms = (d: Date | null) => (d ? d.getTime() : null)

/**
 * Game transfer (our addition): a game as one ZIP archive — `manifest.json` (format
 * `pennant-game`, version 1) and every file it uses under `blobs/<sha256>` — and back as a new
 * game on any instance. Teams, submissions and writeups travel only in a full archive, and come
 * back only when the import asks for them, onto teams that already exist here under the same name.
 */
export function createTransferService(deps: {
  db: Db
  storage: BlobStorage
  /** Challenge solve counts of a game are recounted (after a full import). */
  recountAccepted: (gameId: number) => Promise<void>
  onChanged?: (gameId: number) => void
}) {
  const { db, storage } = deps
  /** Mutable so tests can make the limits small enough to reach. */
  const limits: ArchiveLimits = { ...defaultLimits }

  async function buildManifest(gameId: number, full: boolean): Promise<Manifest> {
    const game = await requireGame(db, gameId)
    const hashes = new Set<string>()
    const rows = await db
      .select()
      .from(challenges)
      .where(eq(challenges.gameId, gameId))
      .orderBy(asc(challenges.id))
    const ids = rows.map((c) => c.id)
    const flagRows = ids.length
      ? await db.select().from(flags).where(inArray(flags.challengeId, ids)).orderBy(asc(flags.id))
      : []
    const attachmentIds = [...rows.map((c) => c.attachmentId), ...flagRows.map((f) => f.attachmentId)].filter(
      (id): id is number => id !== null,
    )
    const attachmentRows = attachmentIds.length
      ? await db.select().from(attachments).where(inArray(attachments.id, attachmentIds))
      : []
    const byId = new Map(attachmentRows.map((a) => [a.id, a]))
    const ref = (id: number | null): AttachmentRef | null => {
      const a = id === null ? undefined : byId.get(id)
      if (!a) return null
      if (a.type === 1 && a.fileHash) {
        hashes.add(a.fileHash)
        return { type: 'Local', hash: a.fileHash }
      }
      if (a.type === 2 && a.remoteUrl) return { type: 'Remote', url: a.remoteUrl }
      return null
    }
    if (game.posterHash) hashes.add(game.posterHash)
    const noticeRows = await db
      .select()
      .from(gameNotices)
      .where(
        full
          ? eq(gameNotices.gameId, gameId)
          : and(eq(gameNotices.gameId, gameId), notInArray(gameNotices.type, BLOOD_TYPES)),
      )
      .orderBy(asc(gameNotices.id))

    const manifest: Manifest = {
      format: FORMAT,
      version: VERSION,
      exportedAt: Date.now(),
      full,
      game: {
        title: game.title,
        hidden: game.hidden,
        summary: game.summary,
        content: game.content,
        acceptWithoutReview: game.acceptWithoutReview,
        writeupRequired: game.writeupRequired,
        inviteCode: game.inviteCode,
        divisions: game.divisions,
        teamMemberCountLimit: game.teamMemberCountLimit,
        containerCountLimit: game.containerCountLimit,
        start: game.startTimeUtc.getTime(),
        end: game.endTimeUtc.getTime(),
        writeupDeadline: game.writeupDeadline.getTime(),
        writeupNote: game.writeupNote,
        bloodBonus: game.bloodBonus,
        practiceMode: game.practiceMode,
        freezeAt: ms(game.freezeAt),
        revealAt: ms(game.revealAt),
        poster: game.posterHash,
      },
      challenges: rows.map((c) => ({
        ref: c.id,
        title: c.title,
        content: c.content,
        category: nameOf(ChallengeCategoryValues, c.category),
        type: nameOf(ChallengeTypeValues, c.type),
        hints: c.hints,
        isEnabled: c.isEnabled,
        submissionLimit: c.submissionLimit,
        containerImage: c.containerImage,
        memoryLimit: c.memoryLimit,
        storageLimit: c.storageLimit,
        cpuCount: c.cpuCount,
        containerExposePort: c.containerExposePort,
        fileName: c.fileName,
        flagTemplate: c.flagTemplate,
        attachment: ref(c.attachmentId),
        flags: flagRows
          .filter((f) => f.challengeId === c.id)
          .map((f) => ({ flag: f.flag, attachment: ref(f.attachmentId) })),
        enableTrafficCapture: c.enableTrafficCapture,
        disableBloodBonus: c.disableBloodBonus,
        originalScore: c.originalScore,
        minScoreRate: c.minScoreRate,
        difficulty: c.difficulty,
        openAt: ms(c.openAt),
        closeAt: ms(c.closeAt),
      })),
      notices: noticeRows.map((n) => ({
        type: nameOf(NoticeTypeValues, n.type),
        values: n.values,
        time: n.publishTimeUtc.getTime(),
      })),
      blobs: {},
    }

    if (full) {
      const parts = await db
        .select({ p: participations, name: teams.name })
        .from(participations)
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .where(eq(participations.gameId, gameId))
        .orderBy(asc(participations.id))
      const members = await db
        .select({ participationId: userParticipations.participationId, userName: users.userName })
        .from(userParticipations)
        .innerJoin(users, eq(users.id, userParticipations.userId))
        .where(eq(userParticipations.gameId, gameId))
      manifest.teams = parts.map(({ p, name }) => {
        if (p.writeupHash) hashes.add(p.writeupHash)
        return {
          name,
          status: p.status,
          division: p.division,
          members: members.filter((m) => m.participationId === p.id).map((m) => m.userName),
          writeup: p.writeupHash,
          writeupTime: ms(p.writeupTimeUtc),
        }
      })
      const subs = await db
        .select({ s: submissions, team: teams.name, user: users.userName })
        .from(submissions)
        .innerJoin(teams, eq(teams.id, submissions.teamId))
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(eq(submissions.gameId, gameId))
        .orderBy(asc(submissions.id))
      manifest.submissions = subs.map(({ s, team, user }) => ({
        team,
        user,
        challenge: s.challengeId,
        answer: s.answer,
        status: s.status,
        time: s.submitTimeUtc.getTime(),
      }))
    }

    if (hashes.size) {
      const rowsOfFiles = await db
        .select()
        .from(files)
        .where(inArray(files.hash, [...hashes]))
      for (const f of rowsOfFiles) manifest.blobs[f.hash] = { name: f.name, size: f.fileSize }
    }
    // A file the database lists but storage lost cannot travel; refuse now, not halfway through.
    for (const hash of hashes) {
      const stream = manifest.blobs[hash] ? await storage.open(hash) : null
      if (!stream) throw fail('File_NotFound')
      stream.destroy()
    }
    return manifest
  }

  /**
   * Reads and checks an uploaded archive (a file): every failure is a 4xx naming what is wrong.
   * Only the manifest is read into memory (at most `limits.maxManifestBytes`); every file is
   * checked against its hash as a stream. The caller closes the archive.
   */
  async function open(file: string) {
    const zip = await openZip(file, limits)
    try {
      return await check(zip)
    } catch (err) {
      await zip.close()
      throw err
    }
  }

  async function check(zip: ZipReader) {
    if (!zip.sizes.has(MANIFEST_NAME)) throw fail('Transfer_Foreign')
    const raw = await zip.read(MANIFEST_NAME, limits.maxManifestBytes, () =>
      fail('Transfer_ManifestInvalid', {
        params: [`it is larger than ${Math.floor(limits.maxManifestBytes / 1048576)} MiB`],
      }),
    )
    let value: unknown
    try {
      value = JSON.parse(raw.toString('utf8'))
    } catch {
      throw fail('Transfer_ManifestInvalid', { params: ['it is not JSON'] })
    }
    if (typeof value !== 'object' || value === null || (value as { format?: unknown }).format !== FORMAT)
      throw fail('Transfer_Foreign')
    const version = (value as { version?: unknown }).version
    if (version !== VERSION) throw fail('Transfer_UnsupportedVersion', { params: [String(version)] })
    const problem = manifestProblem(value)
    if (problem) throw fail('Transfer_ManifestInvalid', { params: [problem] })
    const manifest = value as Manifest
    // What the schema cannot say: references resolve, and the files are the files.
    const invalid = (why: string) => fail('Transfer_ManifestInvalid', { params: [why] })
    if (manifest.game.end <= manifest.game.start) throw invalid('the game ends before it starts')
    const refs = new Set<number>()
    for (const c of manifest.challenges) {
      if (refs.has(c.ref)) throw invalid(`challenge ${c.ref} appears twice`)
      refs.add(c.ref)
    }
    const used = new Set<string>()
    const use = (hash: string | null | undefined) => {
      if (!hash) return
      if (!manifest.blobs[hash]) throw invalid(`file ${hash} is used but not listed`)
      used.add(hash)
    }
    use(manifest.game.poster)
    for (const c of manifest.challenges) {
      if (c.attachment?.type === 'Local') use(c.attachment.hash)
      for (const f of c.flags) if (f.attachment?.type === 'Local') use(f.attachment.hash)
    }
    for (const t of manifest.teams ?? []) use(t.writeup)
    const teamNames = new Set((manifest.teams ?? []).map((t) => t.name))
    for (const s of manifest.submissions ?? []) {
      if (!refs.has(s.challenge))
        throw invalid(`a submission names challenge ${s.challenge}, which is not in the archive`)
      if (!teamNames.has(s.team))
        throw invalid(`a submission names team ${s.team}, which is not in the archive`)
    }
    for (const [hash, info] of Object.entries(manifest.blobs)) {
      const size = zip.sizes.get(blobEntry(hash))
      if (size === undefined) throw fail('Transfer_BlobMissing', { params: [hash] })
      if (size !== info.size || (await streamedSha256(zip.stream(blobEntry(hash)))) !== hash)
        throw fail('Transfer_BlobCorrupt', { params: [hash] })
    }
    // Every entry's size was checked against what it inflates to, or will be when it is read.
    let unpackedSize = 0
    for (const size of zip.sizes.values()) unpackedSize += size
    return { manifest, zip, used, size: zip.archiveSize, unpackedSize }
  }
  type Opened = Awaited<ReturnType<typeof check>>

  /** Which of the archive's teams exist here: exactly one team of that name, or it is left out. */
  async function matchTeams(manifest: Manifest): Promise<Map<string, number>> {
    const names = [...new Set((manifest.teams ?? []).map((t) => t.name))]
    if (!names.length) return new Map()
    const rows = await db
      .select({ id: teams.id, name: teams.name })
      .from(teams)
      .where(inArray(teams.name, names))
    const out = new Map<string, number>()
    for (const name of names) {
      const found = rows.filter((r) => r.name === name)
      if (found.length === 1) out.set(name, found[0]!.id)
    }
    return out
  }

  async function preview(opened: Opened, withTeams: boolean): Promise<ImportPreview> {
    const { manifest } = opened
    const warnings: TransferWarning[] = []
    const dynamic = manifest.challenges.filter(
      (c) => isDynamicType(ChallengeTypeValues[c.type]) && c.flagTemplate,
    )
    if (dynamic.length) warnings.push({ code: 'DynamicFlagsChange', values: dynamic.map((c) => c.title) })
    const images = [
      ...new Set(
        manifest.challenges
          .filter((c) => isContainerType(ChallengeTypeValues[c.type]) && c.containerImage)
          .map((c) => c.containerImage),
      ),
    ]
    if (images.length) warnings.push({ code: 'ContainerImages', values: images })
    const attachmentRefs = manifest.challenges.flatMap((c) => [
      c.attachment,
      ...c.flags.map((f) => f.attachment),
    ])
    const remote = attachmentRefs.filter((a) => a?.type === 'Remote').length
    if (remote) warnings.push({ code: 'RemoteAttachments', values: [String(remote)] })
    const teamCount = manifest.teams?.length ?? 0
    const subCount = manifest.submissions?.length ?? 0
    let teamsMatched = 0
    let submissionsImported = 0
    if (teamCount && !withTeams) warnings.push({ code: 'TeamsLeftOut', values: [String(teamCount)] })
    if (teamCount && withTeams) {
      const matched = await matchTeams(manifest)
      teamsMatched = matched.size
      submissionsImported = (manifest.submissions ?? []).filter(
        (s) => matched.has(s.team) && s.status !== 'FlagSubmitted',
      ).length
      const missing = (manifest.teams ?? []).filter((t) => !matched.has(t.name)).map((t) => t.name)
      if (missing.length) warnings.push({ code: 'TeamsNotFound', values: missing })
    }
    return {
      title: manifest.game.title,
      full: manifest.full,
      challenges: manifest.challenges.length,
      flags: manifest.challenges.reduce((n, c) => n + c.flags.length, 0),
      attachments: attachmentRefs.filter(Boolean).length,
      notices: manifest.notices.length,
      files: Object.keys(manifest.blobs).length,
      size: opened.size,
      unpackedSize: opened.unpackedSize,
      teams: teamCount,
      submissions: subCount,
      teamsMatched,
      submissionsImported,
      warnings,
    }
  }

  async function importOpened(opened: Opened, withTeams: boolean): Promise<ImportPreview & { id: number }> {
    const summary = await preview(opened, withTeams)
    const { manifest, zip } = opened
    const matched = withTeams ? await matchTeams(manifest) : new Map<string, number>()
    const teamsIn = (manifest.teams ?? []).filter((t) => matched.has(t.name))
    // Each use of a file holds one reference to it (as uploads do).
    const uses = new Map<string, number>()
    const use = (hash: string | null | undefined) => {
      if (hash) uses.set(hash, (uses.get(hash) ?? 0) + 1)
    }
    use(manifest.game.poster)
    for (const c of manifest.challenges) {
      if (c.attachment?.type === 'Local') use(c.attachment.hash)
      for (const f of c.flags) if (f.attachment?.type === 'Local') use(f.attachment.hash)
    }
    for (const t of teamsIn) use(t.writeup)
    // Bytes first (by hash, so never outside storage and harmless if already there).
    // Streamed from the archive to storage, checked against the hash again on the way.
    for (const hash of uses.keys()) {
      const staged = await storage.stage(zip.stream(blobEntry(hash)))
      if (staged.hash !== hash) {
        await staged.discard()
        throw fail('Transfer_BlobCorrupt', { params: [hash] })
      }
      await staged.commit()
    }

    const keys = newGameKeys()
    const g = manifest.game
    const date = (v: number | null) => (v === null ? null : new Date(v))
    const gameId = await db
      .transaction(async (tx) => {
        const now = new Date()
        // One statement per file, so two imports of the same archive at once both count.
        for (const [hash, n] of uses)
          await tx
            .insert(files)
            .values({
              hash,
              name: manifest.blobs[hash]!.name,
              fileSize: manifest.blobs[hash]!.size,
              uploadTimeUtc: now,
              referenceCount: n,
            })
            .onConflictDoUpdate({
              target: files.hash,
              set: { referenceCount: sql`${files.referenceCount} + ${n}` },
            })
        const [game] = await tx
          .insert(games)
          .values({
            title: g.title,
            publicKey: keys.publicKey,
            privateKey: keys.privateKey,
            hidden: g.hidden,
            posterHash: g.poster,
            summary: g.summary,
            content: g.content,
            acceptWithoutReview: g.acceptWithoutReview,
            writeupRequired: g.writeupRequired,
            inviteCode: g.inviteCode,
            divisions: g.divisions,
            teamMemberCountLimit: g.teamMemberCountLimit,
            containerCountLimit: g.containerCountLimit,
            startTimeUtc: new Date(g.start),
            endTimeUtc: new Date(g.end),
            writeupDeadline: new Date(g.writeupDeadline),
            writeupNote: g.writeupNote,
            bloodBonus: normaliseBloodBonus(g.bloodBonus),
            practiceMode: g.practiceMode,
            freezeAt: date(g.freezeAt),
            revealAt: date(g.revealAt),
          })
          .returning({ id: games.id })
        const id = game!.id
        const attach = async (a: AttachmentRef | null) => {
          if (!a) return null
          const [row] = await tx
            .insert(attachments)
            .values(a.type === 'Local' ? { type: 1, fileHash: a.hash } : { type: 2, remoteUrl: a.url })
            .returning({ id: attachments.id })
          return row!.id
        }
        const challengeIds = new Map<number, number>()
        for (const c of manifest.challenges) {
          const [row] = await tx
            .insert(challenges)
            .values({
              gameId: id,
              title: c.title,
              content: c.content,
              category: ChallengeCategoryValues[c.category as keyof typeof ChallengeCategoryValues],
              type: ChallengeTypeValues[c.type as keyof typeof ChallengeTypeValues],
              hints: c.hints,
              isEnabled: c.isEnabled,
              submissionLimit: c.submissionLimit,
              containerImage: c.containerImage,
              memoryLimit: c.memoryLimit,
              storageLimit: c.storageLimit,
              cpuCount: c.cpuCount,
              containerExposePort: c.containerExposePort,
              fileName: c.fileName,
              flagTemplate: c.flagTemplate,
              attachmentId: await attach(c.attachment),
              enableTrafficCapture: c.enableTrafficCapture,
              disableBloodBonus: c.disableBloodBonus,
              originalScore: c.originalScore,
              minScoreRate: c.minScoreRate,
              difficulty: c.difficulty,
              openAt: date(c.openAt),
              closeAt: date(c.closeAt),
            })
            .returning({ id: challenges.id })
          challengeIds.set(c.ref, row!.id)
          // Dynamic-attachment flags come back unhanded: the teams that held them are not here.
          // Flags go in batches (a dynamic challenge may hold thousands).
          const values: (typeof flags.$inferInsert)[] = []
          for (const f of c.flags)
            values.push({ challengeId: row!.id, flag: f.flag, attachmentId: await attach(f.attachment) })
          for (let i = 0; i < values.length; i += 1000)
            await tx.insert(flags).values(values.slice(i, i + 1000))
        }
        if (manifest.notices.length)
          await tx.insert(gameNotices).values(
            manifest.notices.map((n) => ({
              gameId: id,
              type: NoticeTypeValues[n.type as keyof typeof NoticeTypeValues],
              values: n.values,
              publishTimeUtc: new Date(n.time),
            })),
          )

        for (const t of teamsIn) {
          const teamId = matched.get(t.name)!
          const [p] = await tx
            .insert(participations)
            .values({
              gameId: id,
              teamId,
              status: t.status,
              // Signed with the new game's key, as joining would.
              token: signTeamToken(teamId, keys),
              division: t.division && g.divisions.includes(t.division) ? t.division : null,
              writeupHash: t.writeup,
              writeupTimeUtc: date(t.writeupTime),
            })
            .returning({ id: participations.id })
          // Members who are still in the team here play on for it; nobody else is added.
          const here = await tx
            .select({ userId: users.id, userName: users.userName })
            .from(teamMembers)
            .innerJoin(users, eq(users.id, teamMembers.userId))
            .where(eq(teamMembers.teamId, teamId))
          const byName = new Map(here.map((u) => [u.userName, u.userId]))
          const players = t.members.map((m) => byName.get(m)).filter((u): u is string => !!u)
          if (players.length)
            await tx
              .insert(userParticipations)
              .values(players.map((userId) => ({ gameId: id, userId, teamId, participationId: p!.id })))
              .onConflictDoNothing()
          const subs = (manifest.submissions ?? []).filter(
            (s) => s.team === t.name && s.status !== 'FlagSubmitted',
          )
          const perChallenge = new Map<number, { solved: boolean; n: number }>()
          for (const s of subs) {
            const challengeId = challengeIds.get(s.challenge)!
            await tx.insert(submissions).values({
              answer: s.answer,
              status: s.status,
              submitTimeUtc: new Date(s.time),
              userId: (s.user && byName.get(s.user)) || null,
              teamId,
              participationId: p!.id,
              gameId: id,
              challengeId,
            })
            const state = perChallenge.get(challengeId) ?? { solved: false, n: 0 }
            state.n++
            if (s.status === 'Accepted') state.solved = true
            perChallenge.set(challengeId, state)
          }
          for (const [challengeId, state] of perChallenge)
            await tx.insert(gameInstances).values({
              challengeId,
              participationId: p!.id,
              isSolved: state.solved,
              submissionCount: state.n,
            })
        }
        return id
      })
      .catch(async (err) => {
        // Bytes written for this import that no file record holds are removed again.
        const held = uses.size
          ? await db
              .select({ hash: files.hash })
              .from(files)
              .where(inArray(files.hash, [...uses.keys()]))
          : []
        const kept = new Set(held.map((h) => h.hash))
        for (const hash of uses.keys()) if (!kept.has(hash)) await storage.remove(hash)
        throw err
      })
    if (teamsIn.length) await deps.recountAccepted(gameId)
    deps.onChanged?.(gameId)
    return { ...summary, id: gameId }
  }

  return {
    limits,

    /** The archive of a game as a stream; checked (game, files) before the first byte is sent. */
    async exportGame(gameId: number, full: boolean) {
      const manifest = await buildManifest(gameId, full)
      const hashes = Object.keys(manifest.blobs)
      async function* entries(): AsyncGenerator<ArchiveEntry> {
        yield { name: MANIFEST_NAME, data: Buffer.from(JSON.stringify(manifest, null, 2)) }
        for (const hash of hashes) {
          yield {
            name: blobEntry(hash),
            data: async () => {
              const stream = await storage.open(hash)
              if (!stream) throw new Error(`blob ${hash} went missing during export`)
              return stream
            },
          }
        }
      }
      return { title: manifest.game.title, stream: writeArchive(entries()) }
    },

    /** What importing the archive (a file) would create. */
    async preview(file: string, withTeams: boolean) {
      const opened = await open(file)
      try {
        return await preview(opened, withTeams)
      } finally {
        await opened.zip.close()
      }
    },

    /** Creates a new game (new keys) from an archive (a file); returns its id and what was imported. */
    async importGame(file: string, withTeams: boolean): Promise<ImportPreview & { id: number }> {
      const opened = await open(file)
      try {
        return await importOpened(opened, withTeams)
      } finally {
        await opened.zip.close()
      }
    },
  }
}
export type TransferService = ReturnType<typeof createTransferService>
