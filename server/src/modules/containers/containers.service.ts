import { randomInt, randomUUID } from 'node:crypto'
import { and, asc, eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import {
  challenges,
  containers,
  flags,
  gameEvents,
  gameInstances,
  games,
  participations,
  teams,
  users,
} from '../../db/schema.ts'
import { testFlag } from '../../engine/team-hash.ts'
import { ChallengeCategoryValues, ChallengeTypeValues, isContainerType, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { Clock } from '../../infra/clock/index.ts'
import type { PlayContext } from '../contest/context.ts'
import { type ChallengeRow, hasOpened, requireChallenge } from '../contest/games.queries.ts'
import { type InstanceRow, loadInstance, requireInstance } from '../contest/instances.ts'
import type { AuditService } from '../logs/audit.service.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import { type ContainerRuntime, containerFailure, type Launch, STALE_START_MS } from './container-runtime.ts'
import { type ContainerRow, presentContainerInfo } from './containers.presenters.ts'

/** Seconds between two starts or removals of one team's container (api-contract §1.8). */
const COOL_DOWN_MS = 10_000
/** Test containers live as long as upstream's manager default. */
const TEST_LIFETIME_MS = 2 * 3600_000
const MINUTE = 60_000
const EVENT = { ContainerStart: 1, ContainerDestroy: 2 } as const

/** What goes into a challenge's container besides its flag and team. */
export function launchOf(c: ChallengeRow, env: Record<string, string>, lifetimeMs: number) {
  if (!c.containerImage.trim() || !c.containerExposePort) return null
  return {
    image: c.containerImage.trim(),
    port: c.containerExposePort,
    memoryMb: c.memoryLimit,
    cpuTenths: c.cpuCount,
    storageMb: c.storageLimit,
    env,
    lifetimeMs,
  }
}

/** The flag and team a container carries, under the upstream names (existing images) and ours. */
export function environment(flag: string | null, team: string): Record<string, string> {
  const env: Record<string, string> = { GZCTF_TEAM_ID: team, PENNANT_TEAM_ID: team }
  if (flag !== null) Object.assign(env, { GZCTF_FLAG: flag, PENNANT_FLAG: flag })
  return env
}

/**
 * Challenge containers as teams, organisers and admins use them (api-contract §2.2, §2.5, §2.6;
 * game-engine §6.2): start, extend and destroy a team's container, the organisers' test
 * container, and the admin list.
 */
export function createContainerService(deps: {
  db: Db
  /** The instance's turn, start times and events go by it. */
  clock: Clock
  runtime: ContainerRuntime
  context: PlayContext
  settings: SettingsService
  audit: AuditService
  /** Hears the container events (the monitor hub streams them). */
  bus?: Bus
}) {
  const { db, runtime } = deps

  async function recordEvent(
    type: keyof typeof EVENT,
    c: ChallengeRow,
    teamId: number,
    userId: string | null,
  ) {
    const values = [String(c.id), c.title]
    const time = deps.clock.date()
    await db
      .insert(gameEvents)
      .values({ gameId: c.gameId, type: EVENT[type], values, publishTimeUtc: time, userId, teamId })
    if (!deps.bus) return
    // The event as monitors read it names the team and the user.
    const [names] = await db
      .select({ team: teams.name, user: users.userName })
      .from(teams)
      .leftJoin(users, userId ? eq(users.id, userId) : sql`false`)
      .where(eq(teams.id, teamId))
    deps.bus.publish('game.event', {
      gameId: c.gameId,
      event: { type, values, time: time.getTime(), user: names?.user ?? '', team: names?.team ?? '' },
    })
  }

  /** The gate, the challenge and the team's instance of it, for the three team routes. */
  async function teamInstance(actor: SessionUser, gameId: number, challengeId: number) {
    const { game, participation } = await deps.context.requirePlaying(actor, gameId)
    const [c] = await db
      .select()
      .from(challenges)
      .where(and(eq(challenges.id, challengeId), eq(challenges.gameId, gameId)))
    if (!c?.isEnabled || (deps.settings.isOn('scheduledRelease') && !hasOpened(c, deps.clock.now())))
      throw fail('Challenge_NotFound')
    const instance = await requireInstance(db, c.id, participation.id)
    if (!isContainerType(c.type)) throw fail('Game_ContainerCreationNotAllowed')
    return { game, participation, c, instance }
  }

  async function containerOf(instance: InstanceRow): Promise<ContainerRow | null> {
    if (!instance.containerId) return null
    const [row] = await db.select().from(containers).where(eq(containers.id, instance.containerId))
    return row ?? null
  }

  /**
   * Takes the instance's 10-second turn: answers 429 when the last operation was too recent, or
   * when another request took the turn first (so starts and removals of one instance never overlap,
   * on any number of servers). Returns how to give the turn back if the operation fails.
   */
  async function takeTurn(instance: InstanceRow): Promise<() => Promise<void>> {
    const last = instance.lastContainerOperation
    const now = deps.clock.date()
    const wait = last.getTime() + COOL_DOWN_MS - now.getTime()
    if (wait > 0) throw fail('Game_OperationTooFrequent', { params: [Math.ceil(wait / 1000)] })
    const key = and(
      eq(gameInstances.challengeId, instance.challengeId),
      eq(gameInstances.participationId, instance.participationId),
    )
    const [taken] = await db
      .update(gameInstances)
      .set({ lastContainerOperation: now })
      .where(and(key, eq(gameInstances.lastContainerOperation, last)))
      .returning({ at: gameInstances.lastContainerOperation })
    if (!taken) throw fail('Game_OperationTooFrequent', { params: [COOL_DOWN_MS / 1000] })
    return async () => {
      await db
        .update(gameInstances)
        .set({ lastContainerOperation: last })
        .where(and(key, eq(gameInstances.lastContainerOperation, taken.at)))
    }
  }

  /** Removes a container and, for a team's, records the event. */
  async function destroyRow(row: ContainerRow, c: ChallengeRow | null, actorId: string | null) {
    await runtime.remove(row)
    if (c && row.teamId !== null && !row.isTest) await recordEvent('ContainerDestroy', c, row.teamId, actorId)
  }

  /**
   * A team's start (api-contract §2.6, in the contract's order of checks), run in its turn of the
   * runtime's admission queue: the running row, or the id of a start already under way.
   */
  async function startInTurn(
    actor: SessionUser,
    gameId: number,
    challengeId: number,
  ): Promise<{ row: ContainerRow } | { pending: string }> {
    const { game, participation, c } = await teamInstance(actor, gameId, challengeId)
    if (!runtime.enabled) throw fail('Container_NotConfigured')
    // A dynamic container carries the team's flag: hand it out now if the team never opened the challenge.
    const instance = await loadInstance(db, game, c, participation)
    const existing = await containerOf(instance)
    const giveBack = await takeTurn(instance)
    if (existing?.status === 0 && deps.clock.now() - existing.startedAt.getTime() < STALE_START_MS) {
      // Still starting (a request a proxy gave up on, asked again): answer with that start.
      await giveBack()
      return { pending: existing.id }
    }
    let oldest: ContainerRow | undefined
    let row: ContainerRow
    let launch: Launch
    try {
      if (existing?.status === 1) throw fail('Game_ContainerAlreadyCreated')
      if (existing) await destroyRow(existing, c, actor.id)
      const policy = deps.settings.get().containerPolicy
      let flag: string | null = null
      if (c.type === ChallengeTypeValues.DynamicContainer && instance.flagId !== null) {
        const [f] = await db.select({ flag: flags.flag }).from(flags).where(eq(flags.id, instance.flagId))
        flag = f?.flag ?? null
      }
      const spec = launchOf(
        c,
        environment(flag, String(participation.teamId)),
        policy.defaultLifetime * MINUTE,
      )
      if (!spec) throw fail('Game_ContainerCreationFailed')
      launch = {
        ...spec,
        gameId,
        challengeId: c.id,
        participationId: participation.id,
        teamId: participation.teamId,
        userId: actor.id,
        isTest: false,
      }
      // The team's count and the new row in one step, the team's registration locked: two
      // starts of different challenges cannot both pass the limit.
      row = await db.transaction(async (tx) => {
        await tx
          .select({ id: participations.id })
          .from(participations)
          .where(eq(participations.id, participation.id))
          .for('update')
        if (game.containerCountLimit > 0) {
          const running = await tx
            .select()
            .from(containers)
            .where(and(eq(containers.participationId, participation.id), eq(containers.isTest, false)))
            .orderBy(asc(containers.startedAt))
          if (running.length >= game.containerCountLimit) {
            if (!policy.autoDestroyOnLimitReached)
              throw fail('Game_ContainerNumberLimitExceeded', { params: [game.containerCountLimit] })
            oldest = running[0]
          }
        }
        const [inserted] = await tx.insert(containers).values(runtime.newRow(launch)).returning()
        await tx
          .update(gameInstances)
          .set({ containerId: inserted!.id })
          .where(
            and(eq(gameInstances.challengeId, c.id), eq(gameInstances.participationId, participation.id)),
          )
        return inserted!
      })
    } catch (err) {
      await giveBack()
      throw err
    }
    if (oldest) {
      const [oldChallenge] = oldest.challengeId
        ? await db.select().from(challenges).where(eq(challenges.id, oldest.challengeId))
        : []
      await destroyRow(oldest, oldChallenge ?? null, actor.id).catch(() => {})
    }
    let started: ContainerRow
    try {
      started = await runtime.start(row.id, launch)
    } catch (err) {
      await giveBack()
      throw containerFailure(err, launch.image, actor.role >= 3)
    }
    await recordEvent('ContainerStart', c, participation.teamId, actor.id)
    deps.audit.write({
      logger: 'containers',
      message: `${actor.userName} started a container of "${c.title}" (${launch.image}) for team #${participation.teamId}`,
      status: 'Success',
      userName: actor.userName,
    })
    return { row: started }
  }

  return {
    /** Starts the team's container, in its turn. */
    async start(actor: SessionUser, gameId: number, challengeId: number) {
      const outcome = await runtime.admit(() => startInTurn(actor, gameId, challengeId))
      // Waiting for another start happens outside the queue, which that start may still be in.
      return 'pending' in outcome
        ? presentContainerInfo(await runtime.settled(outcome.pending))
        : presentContainerInfo(outcome.row)
    },

    /** Adds the extension when the container is inside its renewal window. */
    async extend(actor: SessionUser, gameId: number, challengeId: number) {
      const { instance } = await teamInstance(actor, gameId, challengeId)
      const existing = await containerOf(instance)
      if (!existing) throw fail('Game_ContainerNotCreated')
      const policy = deps.settings.get().containerPolicy
      const row = await runtime.extend(
        existing.id,
        policy.renewalWindow * MINUTE,
        policy.extensionDuration * MINUTE,
      )
      if (!row) throw fail('Game_ContainerExtensionNotAvailable', { params: [policy.renewalWindow] })
      return presentContainerInfo(row)
    },

    async destroy(actor: SessionUser, gameId: number, challengeId: number): Promise<void> {
      const { c, instance } = await teamInstance(actor, gameId, challengeId)
      const existing = await containerOf(instance)
      if (!existing) throw fail('Game_ContainerNotCreated')
      if (!runtime.enabled) throw fail('Container_NotConfigured')
      const giveBack = await takeTurn(instance)
      try {
        await destroyRow(existing, c, actor.id)
      } catch {
        await giveBack()
        throw fail('Game_ContainerDeletionFailed')
      }
      deps.audit.write({
        logger: 'containers',
        message: `${actor.userName} destroyed the container of "${c.title}" for team #${existing.teamId}`,
        status: 'Success',
        userName: actor.userName,
      })
    },

    /** The team's container for the challenge dialog: `closeTime` and `instanceEntry`. */
    containerOf,

    /** Starts the organisers' test container of a challenge, replacing the previous one. */
    async startTest(actor: SessionUser, gameId: number, challengeId: number) {
      const c = await requireChallenge(db, gameId, challengeId)
      if (!isContainerType(c.type)) throw fail('Game_ContainerCreationNotAllowed')
      const flag =
        c.type === ChallengeTypeValues.DynamicContainer
          ? testFlag(c.flagTemplate, { random: randomInt, guid: randomUUID })
          : null
      const spec = launchOf(c, environment(flag, 'admin'), TEST_LIFETIME_MS)
      if (!spec) throw fail('Container_ConfigError')
      if (!runtime.enabled) throw fail('Container_NotConfigured')
      if (c.testContainerId) {
        const [previous] = await db.select().from(containers).where(eq(containers.id, c.testContainerId))
        if (previous) await runtime.remove(previous).catch(() => {})
      }
      const launch: Launch = {
        ...spec,
        gameId,
        challengeId: c.id,
        participationId: null,
        teamId: null,
        userId: actor.id,
        isTest: true,
      }
      const [row] = await db.insert(containers).values(runtime.newRow(launch)).returning()
      await db.update(challenges).set({ testContainerId: row!.id }).where(eq(challenges.id, c.id))
      try {
        return presentContainerInfo(await runtime.start(row!.id, launch))
      } catch (err) {
        throw containerFailure(err, launch.image, true)
      }
    },

    async destroyTest(gameId: number, challengeId: number): Promise<void> {
      const c = await requireChallenge(db, gameId, challengeId)
      if (!c.testContainerId) return
      const [row] = await db.select().from(containers).where(eq(containers.id, c.testContainerId))
      if (!row) return
      if (!runtime.enabled) throw fail('Container_NotConfigured')
      try {
        await runtime.remove(row)
      } catch {
        throw fail('Game_ContainerDeletionFailed')
      }
    },

    /** The test container shown in the challenge editor. */
    async testContainer(c: ChallengeRow) {
      if (!c.testContainerId) return null
      const [row] = await db.select().from(containers).where(eq(containers.id, c.testContainerId))
      return row ? presentContainerInfo(row) : null
    },

    /** Every team container, oldest first (api-contract §2.2 "instances"). */
    async list() {
      const rows = await db
        .select({
          row: containers,
          team: teams,
          challenge: challenges,
          game: { id: games.id, title: games.title },
        })
        .from(containers)
        .leftJoin(teams, eq(teams.id, containers.teamId))
        .leftJoin(challenges, eq(challenges.id, containers.challengeId))
        .leftJoin(games, eq(games.id, containers.gameId))
        .where(eq(containers.isTest, false))
        .orderBy(asc(containers.startedAt))
      const data = rows.map(({ row, team, challenge, game }) => ({
        team: team ? { id: team.id, name: team.name, avatar: avatarUrl(team.avatarHash) } : null,
        challenge: challenge
          ? {
              id: challenge.id,
              title: challenge.title,
              category: nameOf(ChallengeCategoryValues, challenge.category),
            }
          : null,
        game: game?.id ? game : null,
        image: row.image,
        containerGuid: row.id,
        containerId: row.containerId,
        startedAt: row.startedAt.getTime(),
        expectStopAt: row.expectStopAt.getTime(),
        ip: row.publicIp ?? row.ip,
        port: row.publicPort ?? row.port,
      }))
      return { data, length: data.length, total: data.length }
    },

    /**
     * Removes the containers of a challenge or a game about to be deleted (a deleted challenge's
     * containers would otherwise run on until their time is up). Failures are left to the reaper.
     */
    async removeAllOf(
      where: { challengeId: number } | { gameId: number } | { teamId: number },
    ): Promise<void> {
      if (!runtime.enabled) return
      const rows = await db
        .select()
        .from(containers)
        .where(
          'challengeId' in where
            ? eq(containers.challengeId, where.challengeId)
            : 'gameId' in where
              ? eq(containers.gameId, where.gameId)
              : eq(containers.teamId, where.teamId),
        )
      await Promise.all(rows.map((row) => runtime.remove(row).catch(() => {})))
    },

    /** The last `lines` lines a container wrote, for admins and monitors diagnosing a challenge. */
    async logs(id: string, lines: number): Promise<{ lines: string[] }> {
      const [row] = await db.select().from(containers).where(eq(containers.id, id))
      if (!row) throw fail('Admin_ContainerInstanceNotFound')
      if (!runtime.backend) throw fail('Container_NotConfigured')
      // Still starting: nothing written yet.
      if (!row.containerId) return { lines: [] }
      const out = await runtime.backend.logs(row.containerId, lines).catch((err: unknown) => {
        throw containerFailure(err, row.image, true)
      })
      if (out === null) throw fail('Admin_ContainerInstanceNotFound')
      return { lines: out }
    },

    /** An admin removes any container (no game event, as upstream). */
    async destroyInstance(actor: SessionUser, id: string): Promise<void> {
      const [row] = await db.select().from(containers).where(eq(containers.id, id))
      if (!row) throw fail('Admin_ContainerInstanceNotFound')
      if (!runtime.enabled) throw fail('Container_NotConfigured')
      try {
        await runtime.remove(row)
      } catch {
        throw fail('Game_ContainerDeletionFailed')
      }
      deps.audit.write({
        logger: 'containers',
        message: `${actor.userName} destroyed container ${row.id} (${row.image})`,
        status: 'Success',
        userName: actor.userName,
      })
    },
  }
}
export type ContainerService = ReturnType<typeof createContainerService>
