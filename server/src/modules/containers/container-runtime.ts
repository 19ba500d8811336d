import { randomUUID } from 'node:crypto'
import { and, eq, inArray, lt, or, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { ContainerConfig } from '../../config/index.ts'
import type { Db } from '../../db/index.ts'
import { configs, containers } from '../../db/schema.ts'
import { type AppError, fail } from '../../http/errors.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { type ContainerBackend, ContainerError, LABEL } from '../../infra/containers/index.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import type { ContainerRow } from './containers.presenters.ts'

/** A start that has not finished after this long died with its process. */
export const STALE_START_MS = 10 * 60_000

/** What to start and what it belongs to. */
export interface Launch {
  image: string
  port: number
  memoryMb: number
  cpuTenths: number
  storageMb: number
  env: Record<string, string>
  lifetimeMs: number
  gameId: number | null
  challengeId: number
  participationId: number | null
  teamId: number | null
  userId: string | null
  isTest: boolean
  /** False keeps its port off the host even without the platform proxy (the organisers' check). */
  publish?: boolean
}

/** A container that failed to start (`start`) or was found not running (`died`). */
export interface ContainerFailureReport {
  rowId: string
  phase: 'start' | 'died'
  image: string
  gameId: number | null
  challengeId: number | null
  teamId: number | null
  reason: string
}

/** A small counting semaphore: at most `size` holders, the rest wait in order; resizable. */
function createGate(size: number) {
  let limit = size
  let active = 0
  const waiting: (() => void)[] = []
  const admit = () => {
    while (active < limit && waiting.length) {
      active++
      waiting.shift()!()
    }
  }
  async function run<T>(work: () => Promise<T>): Promise<T> {
    if (active < limit) active++
    else await new Promise<void>((resolve) => waiting.push(resolve))
    try {
      return await work()
    } finally {
      active--
      admit()
    }
  }
  run.resize = (next: number) => {
    limit = next
    admit()
  }
  return run
}

/**
 * Starts to send the engine at once when `CONTAINER_START_CONCURRENCY` is unset: half its CPUs.
 * One start keeps about one core busy (network namespace hook, iptables, runc), and a burst of
 * starts at once finishes little sooner than one at a time while taking the CPU the platform's
 * own requests need when they share a host (README, container bench).
 */
export const autoStartConcurrency = (cpus: number) => Math.max(1, Math.floor(cpus / 2))

/**
 * A backend failure as a catalogue error. Players read what they can act on; admins also get
 * the engine's own words.
 */
export function containerFailure(err: unknown, image: string, admin: boolean): AppError {
  if (!(err instanceof ContainerError)) throw err
  switch (err.failure) {
    case 'ImageNotFound':
      return fail('Container_ImageNotFound', { params: [image] })
    case 'Unreachable':
      return fail('Container_Unreachable')
    case 'InvalidLimits':
      return fail('Container_LimitsInvalid', { params: [admin ? err.detail : '—'] })
    default:
      return admin
        ? fail('Container_CreationFailed', { params: [err.detail] })
        : fail('Game_ContainerCreationFailed')
  }
}

/**
 * Runs containers for the platform: rows and backend kept in step. A row is written before the
 * backend is asked to start anything and removed after the container is gone, so the reaper
 * and the start-up reconcile can always tell ours from strangers and leftovers from live ones.
 */
export function createContainerRuntime(deps: {
  db: Db
  /** Start times, lifetimes and extension windows go by it. */
  clock: Clock
  backend: ContainerBackend | null
  config: ContainerConfig
  settings: SettingsService
  log: FastifyBaseLogger
  /** A container went away (its proxied connections end with it). */
  onRemoved?: (id: string) => void
  /** A player's container failed to start or stopped on its own (webhooks tell organisers). */
  onFailed?: (failure: ContainerFailureReport) => void
}) {
  const { db, backend, config } = deps
  // Until the engine says how many CPUs it has, one start at a time.
  const gate = createGate(config.startConcurrency ?? 1)
  // Player starts are admitted a few at a time: a burst of requests then spreads its checks,
  // rows and events over the time the engine takes anyway, instead of piling hundreds of
  // queries onto the database (and the other requests queued behind them) in its first second.
  const admission = createGate((config.startConcurrency ?? 1) * 2)
  let concurrency: Promise<{ starts: number; from: string }> | null = null
  let platformId: Promise<string> | null = null

  /** This platform's id, labelled on its containers so reconcile never touches another's. */
  function platform(): Promise<string> {
    platformId ??= (async () => {
      await db
        .insert(configs)
        .values({ key: 'platform', value: { id: randomUUID() } })
        .onConflictDoNothing()
      const [row] = await db.select().from(configs).where(eq(configs.key, 'platform'))
      return (row!.value as { id: string }).id
    })().catch((err: unknown) => {
      platformId = null
      throw err
    })
    return platformId
  }

  function requireBackend(): ContainerBackend {
    if (!backend) throw fail('Container_NotConfigured')
    return backend
  }

  /** Where players connect: an explicit public host wins over what the backend reports. */
  const publicHost = (reported: string | null) =>
    config.publicHostFrom === 'CONTAINER_PUBLIC_HOST' ? config.publicHost : (reported ?? config.publicHost)

  /**
   * How many starts go to the engine at once, and why; sizes the gates. Read from the engine
   * once when not configured (again after a failure, meanwhile one at a time).
   */
  function startConcurrency(): Promise<{ starts: number; from: string }> {
    if (config.startConcurrency !== null || !backend)
      return Promise.resolve({ starts: config.startConcurrency ?? 1, from: 'CONTAINER_START_CONCURRENCY' })
    concurrency ??= backend.info().then(
      (info) => {
        const starts = autoStartConcurrency(info.cpus)
        gate.resize(starts)
        admission.resize(starts * 2)
        return { starts, from: `half the engine's ${info.cpus} CPUs` }
      },
      (err: unknown) => {
        concurrency = null
        throw err
      },
    )
    return concurrency
  }

  return {
    enabled: backend !== null,
    backend,
    platform,
    startConcurrency,
    /** Runs a player's whole start in turn (see `admission`); the engine gate still applies inside. */
    admit: admission,

    /** A pending row for a container about to start; the caller links it where it belongs. */
    newRow(launch: Launch): typeof containers.$inferInsert {
      const now = deps.clock.date()
      return {
        id: randomUUID(),
        image: launch.image,
        status: 0,
        startedAt: now,
        expectStopAt: new Date(now.getTime() + launch.lifetimeMs),
        gameId: launch.gameId,
        challengeId: launch.challengeId,
        participationId: launch.participationId,
        teamId: launch.teamId,
        userId: launch.userId,
        isTest: launch.isTest,
      }
    },

    /**
     * Starts the container of a pending row (behind the start gate) and records where it runs.
     * On failure the row is removed and the error thrown; the backend leaves nothing behind.
     */
    async start(rowId: string, launch: Launch): Promise<ContainerRow> {
      const engine = requireBackend()
      // Sizes the gates on the first start after the engine came up (cached after that).
      await startConcurrency().catch(() => undefined)
      const proxied = config.portMapping === 'PlatformProxy'
      let removedMeanwhile = false
      try {
        const started = await gate(async () =>
          engine.start({
            instanceId: rowId,
            image: launch.image,
            port: launch.port,
            memoryMb: launch.memoryMb,
            cpuTenths: launch.cpuTenths,
            storageMb: launch.storageMb,
            env: launch.env,
            egress: deps.settings.get().containerPolicy.allowEgress,
            publish: !proxied && launch.publish !== false,
            labels: {
              [LABEL.platform]: await platform(),
              [LABEL.instance]: rowId,
              [LABEL.challenge]: String(launch.challengeId),
              ...(launch.gameId !== null ? { [LABEL.game]: String(launch.gameId) } : {}),
              [LABEL.team]: launch.teamId !== null ? String(launch.teamId) : 'admin',
            },
          }),
        )
        const [row] = await db
          .update(containers)
          .set({
            containerId: started.backendId,
            status: 1,
            isProxy: proxied,
            ip: started.ip,
            port: started.port,
            publicIp: started.publicPort !== null && !proxied ? publicHost(started.publicHost) : null,
            publicPort: proxied ? null : started.publicPort,
            startedAt: started.startedAt,
            expectStopAt: new Date(started.startedAt.getTime() + launch.lifetimeMs),
          })
          .where(eq(containers.id, rowId))
          .returning()
        if (!row) {
          // Destroyed while it started (an admin, the reaper): it must not run on unseen.
          await engine.destroy(started.backendId).catch(() => {})
          removedMeanwhile = true
          throw new ContainerError('StartFailed', 'the container was removed while it started')
        }
        return row
      } catch (err) {
        await db.delete(containers).where(eq(containers.id, rowId))
        deps.log.warn({ err, image: launch.image }, 'container start failed')
        if (!launch.isTest && !removedMeanwhile)
          deps.onFailed?.({
            rowId,
            phase: 'start',
            image: launch.image,
            gameId: launch.gameId,
            challengeId: launch.challengeId,
            teamId: launch.teamId,
            reason: err instanceof ContainerError ? err.detail : String(err),
          })
        throw err
      }
    },

    /**
     * Waits for a start in flight (here or on another server) to finish: the running row, or a
     * failed start when the row goes away or the start outlives {@link STALE_START_MS}.
     */
    async settled(rowId: string): Promise<ContainerRow> {
      for (let delay = 100; ; delay = Math.min(delay * 2, 1000)) {
        const [row] = await db.select().from(containers).where(eq(containers.id, rowId))
        if (!row || deps.clock.now() - row.startedAt.getTime() > STALE_START_MS)
          throw fail('Game_ContainerCreationFailed')
        if (row.status === 1) return row
        await new Promise((r) => setTimeout(r, delay))
      }
    },

    /** Stops a container and forgets its row; a container already gone counts as stopped. */
    async remove(row: ContainerRow): Promise<void> {
      const engine = requireBackend()
      if (row.containerId) await engine.destroy(row.containerId)
      await db.delete(containers).where(eq(containers.id, row.id))
      deps.onRemoved?.(row.id)
    },

    /** Removes every container past its time (game and test alike), and starts that never finished. */
    async reap(now = deps.clock.date()): Promise<number> {
      if (!backend) return 0
      const due = await db
        .select()
        .from(containers)
        .where(
          or(
            lt(containers.expectStopAt, now),
            and(eq(containers.status, 0), lt(containers.startedAt, new Date(now.getTime() - STALE_START_MS))),
          ),
        )
      let removed = 0
      for (const row of due) {
        try {
          if (row.containerId) await backend.destroy(row.containerId)
          await db.delete(containers).where(eq(containers.id, row.id))
          deps.onRemoved?.(row.id)
          removed++
        } catch (err) {
          deps.log.warn({ err, container: row.id }, 'could not remove an expired container')
        }
      }
      if (removed) deps.log.info({ removed }, 'removed expired containers')
      return removed
    },

    /**
     * Brings rows and backend in line after a restart: our containers that no row knows are
     * removed, rows whose container vanished are dropped. Starts in flight elsewhere are left alone.
     */
    async reconcile(): Promise<{ removedContainers: number; droppedRows: number }> {
      if (!backend) return { removedContainers: 0, droppedRows: 0 }
      const listed = await backend.list({ [LABEL.platform]: await platform() })
      const rows = await db.select().from(containers)
      const known = new Map(rows.map((r) => [r.id, r]))
      let removedContainers = 0
      const died = (row: ContainerRow, reason: string) => {
        if (!row.isTest)
          deps.onFailed?.({
            rowId: row.id,
            phase: 'died',
            image: row.image,
            gameId: row.gameId,
            challengeId: row.challengeId,
            teamId: row.teamId,
            reason,
          })
      }
      for (const c of listed) {
        const row = c.instanceId ? known.get(c.instanceId) : undefined
        // A player's container that stopped on its own stays until its time is up; say so once.
        if (row && row.status === 1 && row.containerId === c.backendId && !c.running)
          died(row, 'the container is not running')
        // Kept: the container its row names, and a start still in flight (no id recorded yet).
        if (row && (row.containerId === c.backendId || row.containerId === '')) continue
        await backend.destroy(c.backendId)
        removedContainers++
      }
      const alive = new Set(listed.map((c) => c.backendId))
      const vanished = rows.filter((r) => r.status === 1 && r.containerId && !alive.has(r.containerId))
      // A second look at each: listing and reading rows are not one instant.
      const gone: string[] = []
      for (const r of vanished) if ((await backend.inspect(r.containerId)) === null) gone.push(r.id)
      if (gone.length) await db.delete(containers).where(inArray(containers.id, gone))
      for (const r of vanished) if (gone.includes(r.id)) died(r, 'the container is gone')
      if (removedContainers || gone.length)
        deps.log.info({ removedContainers, droppedRows: gone.length }, 'reconciled containers')
      return { removedContainers, droppedRows: gone.length }
    },

    /** Extends a container when it is inside the renewal window; null when it is not. */
    async extend(id: string, windowMs: number, byMs: number): Promise<ContainerRow | null> {
      const [row] = await db
        .update(containers)
        .set({ expectStopAt: sql`${containers.expectStopAt} + ${`${byMs} milliseconds`}::interval` })
        .where(
          and(
            eq(containers.id, id),
            sql`${containers.expectStopAt} <= ${new Date(deps.clock.now() + windowMs).toISOString()}::timestamptz`,
          ),
        )
        .returning()
      return row ?? null
    },

    async status() {
      if (!backend)
        return {
          backend: 'none' as const,
          available: false,
          version: null,
          message: null,
          publicHost: config.publicHost,
          storageLimits: false,
          isolation: null,
        }
      try {
        const info = await backend.info()
        return {
          backend: info.name,
          available: true,
          version: info.version,
          message: null,
          publicHost: config.publicHost,
          storageLimits: info.storageLimits,
          isolation: backend.isolation.status(),
        }
      } catch (err) {
        return {
          backend: backend.name,
          available: false,
          version: null,
          message: err instanceof ContainerError ? err.detail : String(err),
          publicHost: config.publicHost,
          storageLimits: false,
          isolation: backend.isolation.status(),
        }
      }
    },
  }
}
export type ContainerRuntime = ReturnType<typeof createContainerRuntime>
