import path from 'node:path'
import type { Config } from '../config/index.ts'
import type { Bus } from './bus/index.ts'
import { createMemoryBus } from './bus/memory.ts'
import { createRedisBus } from './bus/redis.ts'
import type { Cache } from './cache/index.ts'
import { createMemoryCache } from './cache/memory.ts'
import { createRedisCache } from './cache/redis.ts'
import type { ContainerBackend } from './containers/index.ts'
import { createLocalLeases, type Leases } from './leases/index.ts'
import type { Mailer } from './mail/index.ts'
import { createSmtpMailer, noMailer } from './mail/smtp.ts'
import { createMemoryRateLimitStore, type RateLimitStore } from './rate-limit/index.ts'
import { createRedisRateLimitStore } from './rate-limit/redis.ts'
import type { RedisConnections } from './redis/index.ts'
import type { BlobStorage } from './storage/index.ts'
import { createLocalStorage } from './storage/local.ts'

/** The outside world, each part behind its port. */
export interface Infra {
  cache: Cache
  storage: BlobStorage
  mailer: Mailer
  /** Null when containers are off (`CONTAINER_BACKEND=none`, or no engine answered). */
  containers: ContainerBackend | null
  /** What happened, for live screens: services publish, the hubs subscribe. */
  bus: Bus
  /** Rate-limit counters (api-contract §1.8): per process, or shared in Redis. */
  rateLimits: RateLimitStore
  /** Set when `REDIS_URL` is: the servers share the cache, limits and bus through it. */
  redis: RedisConnections | null
  /** Background work runs where its lease is held: one server at a time. */
  leases: Leases
}

type Log = { info(msg: string): void; warn(msg: string): void }

/**
 * The container backend `CONTAINER_BACKEND` names. `auto` takes Docker when a daemon answers
 * now and goes without otherwise; the Docker client is loaded only when one is wanted.
 */
async function openContainers(config: Config['containers'], log: Log): Promise<ContainerBackend | null> {
  if (config.backend === 'none') return null
  const { connectEngine } = await import('./containers/engine.ts')
  const docker = connectEngine({ host: config.dockerHost, certPath: config.dockerCertPath })
  const where = config.dockerHost ?? 'the local socket'
  let info: { Swarm?: { LocalNodeState?: string; ControlAvailable?: boolean } } | null = null
  try {
    info = await Promise.race([
      docker.info(),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('no answer in 3 s')), 3000).unref(),
      ),
    ])
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err)
    if (config.backend === 'auto') {
      log.info(`containers are off: no Docker engine answers at ${where} (${why})`)
      return null
    }
    log.warn(
      `the Docker engine at ${where} does not answer (${why}); container starts will fail until it does`,
    )
  }
  const common = {
    docker,
    network: config.network,
    pidsLimit: config.pidsLimit,
    egressAllow: config.egressAllow,
    warn: log.warn,
    info: log.info,
  }
  if (config.backend === 'swarm') {
    if (info && !(info.Swarm?.LocalNodeState === 'active' && info.Swarm.ControlAvailable))
      log.warn(`the engine at ${where} is not a swarm manager; container starts will fail`)
    const { createSwarmBackend } = await import('./containers/swarm.ts')
    log.info(`containers run as Docker Swarm services (${where})`)
    return createSwarmBackend({ ...common, publish: config.swarmPublish })
  }
  const { createDockerBackend } = await import('./containers/docker.ts')
  log.info(`containers run on Docker (${where})`)
  return createDockerBackend(common)
}

const quiet: Log = { info() {}, warn() {} }

/** The one place that picks an implementation for each port from the configuration. */
export async function createInfra(config: Config, log: Log = quiet): Promise<Infra> {
  const busError = (err: unknown, topic: string) => log.warn(`a ${topic} subscriber failed: ${String(err)}`)
  const { redisUrl } = config
  const [containers, redis] = await Promise.all([
    openContainers(config.containers, log),
    // Never held up by Redis: without it the server starts on its own and keeps trying. Its
    // client (ioredis, ~20 MiB) is loaded only when REDIS_URL asks for it.
    redisUrl
      ? import('./redis/index.ts').then(({ connectRedis }) =>
          connectRedis(redisUrl, { prefix: config.redisPrefix, log }),
        )
      : null,
  ])
  const shared = redis
    ? {
        cache: createRedisCache(redis),
        bus: createRedisBus(redis, busError, log),
        rateLimits: createRedisRateLimitStore(redis),
      }
    : { cache: createMemoryCache(), bus: createMemoryBus(busError), rateLimits: createMemoryRateLimitStore() }
  if (redis?.up) {
    // Messages from the other servers are heard from here on.
    await shared.bus.ready?.()
    log.info(
      `sharing the cache, rate limits and live updates through Redis at ${redis.where} (prefix ${redis.prefix})`,
    )
  }
  // PostgreSQL may serve several servers: its advisory locks decide who runs each job. The pg
  // client is loaded only then (on PGlite nothing else needs it).
  const leases = config.databaseUrl
    ? (await import('./leases/postgres.ts')).createPostgresLeases({
        url: config.databaseUrl,
        onChange: (name, held) =>
          log.info(held ? `this server now runs the ${name}` : `this server no longer runs the ${name}`),
      })
    : createLocalLeases()
  return {
    ...shared,
    redis,
    storage: createLocalStorage(path.join(config.dataDir, 'files')),
    mailer: config.smtp ? createSmtpMailer(config.smtp) : noMailer,
    containers,
    leases,
  }
}

export async function closeInfra(infra: Infra): Promise<void> {
  await infra.leases.release()
  infra.rateLimits.close()
  await Promise.all([infra.cache.close(), infra.mailer.close(), infra.containers?.close(), infra.bus.close()])
  await infra.redis?.close()
}
