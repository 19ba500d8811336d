import { and, asc, count, eq, inArray, sql } from 'drizzle-orm'
import type { Static } from 'typebox'
import { isUniqueViolation } from '../../db/errors.ts'
import type { Db, DbOrTx } from '../../db/index.ts'
import { challenges, flags, gameInstances, participations } from '../../db/schema.ts'
import { isTemplateStrong } from '../../engine/flag-template.ts'
import { dynamicScore, minimumScore } from '../../engine/scoring.ts'
import { ChallengeCategoryValues, ChallengeTypeValues, isContainerType, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { BlobService } from '../assets/blobs.service.ts'
import type { ContainerInfo } from '../containers/containers.presenters.ts'
import {
  type ChallengeRow,
  hasOpened,
  phaseOf,
  requireChallenge,
  requireGame,
} from '../contest/games.queries.ts'
import { type AttachmentInput, createAttachment, presentAttachment, removeAttachment } from './attachments.ts'
import type { ChallengeCreateModel, ChallengeUpdateModel } from './challenges.schemas.ts'
import type { NoticeService } from './notices.service.ts'

const DYNAMIC_CONTAINER = ChallengeTypeValues.DynamicContainer
const DYNAMIC_ATTACHMENT = ChallengeTypeValues.DynamicAttachment

export const currentScore = (c: ChallengeRow) =>
  dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount)

function presentInfo(c: ChallengeRow) {
  return {
    id: c.id,
    title: c.title,
    category: nameOf(ChallengeCategoryValues, c.category),
    type: nameOf(ChallengeTypeValues, c.type),
    isEnabled: c.isEnabled,
    score: currentScore(c),
    minScore: minimumScore(c.originalScore, c.minScoreRate),
    originalScore: c.originalScore,
    openAt: c.openAt?.getTime() ?? null,
    closeAt: c.closeAt?.getTime() ?? null,
    sourceKey: c.sourceKey,
  }
}

/** A second challenge of the game with the same source key is a 409, not a 500. */
async function uniqueKey<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (err) {
    if (isUniqueViolation(err, 'challenges_game_id_source_key_idx')) throw fail('Challenge_SourceKeyTaken')
    throw err
  }
}

/** Same list of hints, as a set with the same count (game-engine §3.2 step 7). */
const sameHints = (a: string[], b: string[]) =>
  a.length === b.length && new Set(a).size === new Set(b).size && a.every((h) => b.includes(h))

/** Organisers' side of challenges and flags (api-contract §2.5 "Challenges"). */
export function createEditChallengeService(deps: {
  db: Db
  clock: Clock
  blobs: BlobService
  notices: NoticeService
  /** The organisers' test container of a challenge, as the editor shows it. */
  testContainer: (c: ChallengeRow) => Promise<ContainerInfo | null>
  /** Stops the challenge's containers before it is deleted. */
  removeContainers: (challengeId: number) => Promise<void>
  onChanged?: (gameId: number) => void
  /** Whether scheduled release is on: a challenge before its `openAt` is not shown yet. */
  scheduled?: () => boolean
}) {
  const { db, blobs, notices } = deps
  const scheduled = deps.scheduled ?? (() => false)
  /** What players see: enabled and, with scheduled release on, opened. */
  const shown = (c: ChallengeRow, now: number) => c.isEnabled && (!scheduled() || hasOpened(c, now))

  async function detail(tx: DbOrTx, c: ChallengeRow) {
    // Listing a dynamic container's flags would list every team's flag.
    const flagRows =
      c.type === DYNAMIC_CONTAINER
        ? []
        : await tx.select().from(flags).where(eq(flags.challengeId, c.id)).orderBy(asc(flags.id))
    return {
      id: c.id,
      title: c.title,
      content: c.content,
      category: nameOf(ChallengeCategoryValues, c.category),
      type: nameOf(ChallengeTypeValues, c.type),
      hints: c.hints,
      flagTemplate: c.flagTemplate,
      isEnabled: c.isEnabled,
      acceptedCount: c.acceptedCount,
      fileName: c.fileName,
      attachment: await presentAttachment(tx, c.attachmentId),
      testContainer: await deps.testContainer(c),
      flags: await Promise.all(
        flagRows.map(async (f) => ({
          id: f.id,
          flag: f.flag,
          attachment: await presentAttachment(tx, f.attachmentId, c.fileName),
        })),
      ),
      containerImage: c.containerImage,
      memoryLimit: c.memoryLimit,
      cpuCount: c.cpuCount,
      storageLimit: c.storageLimit,
      containerExposePort: c.containerExposePort,
      enableTrafficCapture: c.enableTrafficCapture,
      disableBloodBonus: c.disableBloodBonus,
      submissionLimit: c.submissionLimit,
      originalScore: c.originalScore,
      minScoreRate: c.minScoreRate,
      difficulty: c.difficulty,
      openAt: c.openAt?.getTime() ?? null,
      closeAt: c.closeAt?.getTime() ?? null,
      sourceKey: c.sourceKey,
    }
  }

  /** Gives every team of the game a (not yet loaded) instance of the challenge. */
  async function addInstances(tx: DbOrTx, gameId: number, challengeId: number) {
    await tx.execute(sql`
      insert into ${gameInstances} (challenge_id, participation_id)
      select ${challengeId}, ${participations.id} from ${participations} where ${participations.gameId} = ${gameId}
      on conflict do nothing`)
  }

  return {
    async list(gameId: number) {
      const rows = await db
        .select()
        .from(challenges)
        .where(eq(challenges.gameId, gameId))
        .orderBy(asc(challenges.id))
      return rows.map(presentInfo)
    },

    async create(gameId: number, input: Static<typeof ChallengeCreateModel>) {
      await requireGame(db, gameId)
      const [row] = await uniqueKey(() =>
        db
          .insert(challenges)
          .values({
            gameId,
            title: input.title.trim(),
            category: ChallengeCategoryValues[input.category ?? 'Misc'],
            type: ChallengeTypeValues[input.type ?? 'StaticAttachment'],
            sourceKey: input.sourceKey || null,
          })
          .returning(),
      )
      return detail(db, row!)
    },

    get: async (gameId: number, id: number) => detail(db, await requireChallenge(db, gameId, id)),

    async update(gameId: number, id: number, input: Static<typeof ChallengeUpdateModel>) {
      const game = await requireGame(db, gameId)
      const c = await requireChallenge(db, gameId, id)
      const enabling = input.isEnabled === true && !c.isEnabled
      // 1–4: the contract's checks, in its order.
      if (enabling && c.type !== DYNAMIC_CONTAINER) {
        const [n] = await db.select({ n: count() }).from(flags).where(eq(flags.challengeId, id))
        if (!n?.n) throw fail('Challenge_NoFlag')
      }
      if (input.enableTrafficCapture && !isContainerType(c.type)) throw fail('Challenge_CaptureNotAllowed')
      if (input.fileName != null && !input.fileName.trim()) throw fail('Challenge_DynamicAssetsNotNullable')
      const template = input.flagTemplate == null ? undefined : input.flagTemplate.trim() || null
      if (template && c.type === DYNAMIC_CONTAINER && !isTemplateStrong(template))
        throw fail('Challenge_FlagTooTrivial')
      // 5 (ours): a schedule whose close does not follow its open.
      const openAt =
        input.openAt === undefined ? c.openAt : input.openAt === null ? null : new Date(input.openAt)
      const closeAt =
        input.closeAt === undefined ? c.closeAt : input.closeAt === null ? null : new Date(input.closeAt)
      if (openAt && closeAt && closeAt.getTime() <= openAt.getTime()) throw fail('Challenge_ScheduleInvalid')

      const set: Partial<ChallengeRow> = {}
      if (input.title != null) set.title = input.title.trim()
      if (input.content != null) set.content = input.content
      if (template !== undefined) set.flagTemplate = template
      if (input.category != null) set.category = ChallengeCategoryValues[input.category]
      if (input.hints != null) set.hints = input.hints
      if (input.isEnabled != null) set.isEnabled = input.isEnabled
      if (input.fileName != null) set.fileName = input.fileName.trim()
      if (input.submissionLimit != null) set.submissionLimit = input.submissionLimit
      if (input.containerImage != null) set.containerImage = input.containerImage.trim()
      if (input.memoryLimit != null) set.memoryLimit = input.memoryLimit
      if (input.cpuCount != null) set.cpuCount = input.cpuCount
      if (input.storageLimit != null) set.storageLimit = input.storageLimit
      if (input.containerExposePort != null) set.containerExposePort = input.containerExposePort
      if (input.enableTrafficCapture != null)
        set.enableTrafficCapture = input.enableTrafficCapture && isContainerType(c.type)
      if (input.disableBloodBonus != null) set.disableBloodBonus = input.disableBloodBonus
      if (input.originalScore != null) set.originalScore = input.originalScore
      if (input.minScoreRate != null) set.minScoreRate = input.minScoreRate
      if (input.difficulty != null) set.difficulty = input.difficulty
      if (input.sourceKey != null) set.sourceKey = input.sourceKey || null
      const now = deps.clock.now()
      if (input.openAt !== undefined) set.openAt = openAt
      if (input.closeAt !== undefined) set.closeAt = closeAt
      // The release job announces an opening still to come; one that is past (or none) needs
      // no announcement from it: this edit makes the challenge visible, and says so below.
      if (input.openAt !== undefined || enabling) set.openNoticed = !(openAt && openAt.getTime() > now)

      const updated = await uniqueKey(() =>
        db.transaction(async (tx) => {
          const [row] = Object.keys(set).length
            ? await tx.update(challenges).set(set).where(eq(challenges.id, id)).returning()
            : [c]
          if (row!.isEnabled) await addInstances(tx, gameId, id)
          return row!
        }),
      )

      // Notices only for what players can see change during the game (decisions.md item 8).
      if (phaseOf(game, now) === 'running') {
        if (!shown(c, now) && shown(updated, now)) await notices.post(gameId, 'NewChallenge', [updated.title])
        else if (shown(updated, now) && input.hints != null && !sameHints(c.hints, input.hints)) {
          await notices.post(gameId, 'NewHint', [updated.title])
        }
      }
      deps.onChanged?.(gameId)
      return detail(db, updated)
    },

    async remove(gameId: number, id: number): Promise<void> {
      const c = await requireChallenge(db, gameId, id)
      await deps.removeContainers(id)
      const flagAttachments = await db
        .select({ id: flags.attachmentId })
        .from(flags)
        .where(eq(flags.challengeId, id))
      await db.delete(challenges).where(eq(challenges.id, id))
      // Its solves and submissions went with it: boards and remembered verdicts must forget them.
      deps.onChanged?.(gameId)
      for (const a of [c.attachmentId, ...flagAttachments.map((f) => f.id)])
        await removeAttachment(db, blobs, a)
    },

    async setAttachment(gameId: number, id: number, input: AttachmentInput): Promise<void> {
      const c = await requireChallenge(db, gameId, id)
      if (c.type === DYNAMIC_ATTACHMENT) throw fail('Challenge_UseAssetsApiForDynamic')
      const attachmentId = await createAttachment(db, blobs, input)
      await db.update(challenges).set({ attachmentId }).where(eq(challenges.id, id))
      await removeAttachment(db, blobs, c.attachmentId)
    },

    async addFlags(gameId: number, id: number, input: (AttachmentInput & { flag: string })[]): Promise<void> {
      await requireChallenge(db, gameId, id)
      for (const item of input) {
        const attachmentId = await createAttachment(db, blobs, item)
        await db.insert(flags).values({ challengeId: id, flag: item.flag, attachmentId })
      }
    },

    /** `Success`, or `NotFound` when the flag is not one of this challenge's. */
    async removeFlag(gameId: number, id: number, flagId: number): Promise<'Success' | 'NotFound'> {
      await requireChallenge(db, gameId, id)
      const [flag] = await db
        .delete(flags)
        .where(and(eq(flags.id, flagId), eq(flags.challengeId, id)))
        .returning()
      if (!flag) return 'NotFound'
      await removeAttachment(db, blobs, flag.attachmentId)
      const [left] = await db.select({ n: count() }).from(flags).where(eq(flags.challengeId, id))
      if (!left?.n) {
        await db.update(challenges).set({ isEnabled: false }).where(eq(challenges.id, id))
        deps.onChanged?.(gameId)
      }
      return 'Success'
    },

    /**
     * Recounts each challenge's solves from the instances of accepted teams. Unlike upstream,
     * challenges that end up with no solves are reset to 0 too (decisions.md item 8).
     */
    async recountAccepted(gameId: number): Promise<void> {
      await requireGame(db, gameId)
      const rows = await db
        .select({ id: challenges.id })
        .from(challenges)
        .where(eq(challenges.gameId, gameId))
      if (!rows.length) return
      const solved = await db
        .select({ challengeId: gameInstances.challengeId, n: count() })
        .from(gameInstances)
        .innerJoin(participations, eq(participations.id, gameInstances.participationId))
        .where(
          and(
            inArray(
              gameInstances.challengeId,
              rows.map((r) => r.id),
            ),
            eq(gameInstances.isSolved, true),
            eq(participations.status, 1),
          ),
        )
        .groupBy(gameInstances.challengeId)
      const byId = new Map(solved.map((s) => [s.challengeId, s.n]))
      for (const { id } of rows) {
        await db
          .update(challenges)
          .set({ acceptedCount: byId.get(id) ?? 0 })
          .where(eq(challenges.id, id))
      }
    },
  }
}
export type EditChallengeService = ReturnType<typeof createEditChallengeService>
