import { isIP } from 'node:net'
import path from 'node:path'
import { serverDir } from '../paths.ts'

/** The captcha providers of the contract (`CaptchaProvider`). */
export type CaptchaProviderName = 'None' | 'HashPow' | 'CloudflareTurnstile'

export interface SmtpConfig {
  host: string
  port: number
  /** Implicit TLS (port 465 style); otherwise STARTTLS is used when offered. */
  secure: boolean
  user?: string
  password?: string
  /** Sender address, e.g. `Pennant <ctf@example.org>`. */
  from: string
  /** Refuse self-signed certificates (turn off only for a lab relay). */
  rejectUnauthorized: boolean
}

/** Every setting the server reads from its environment, parsed once. */
export interface Config {
  port: number
  host: string
  /** Root of everything the embedded setup keeps on disk: the PGlite database and uploaded files. */
  dataDir: string
  /** The built web client (`web/dist`); served when present. */
  webDir?: string
  /** PostgreSQL connection string; unset means the embedded PGlite database under `dataDir`. */
  databaseUrl?: string
  /** Several servers share state through this Redis (cache, limits, the bus); unset: one server. */
  redisUrl?: string
  /** Start of every Redis key and channel (`REDIS_PREFIX`), so deployments can share a Redis. */
  redisPrefix: string
  /** Password for the bootstrap `Admin` user, created at start-up when no admin exists. */
  adminPassword?: string
  /** Base URL used in mailed links (`PUBLIC_URL`). */
  publicUrl?: string
  /**
   * `PUBLIC_HOSTS`: without PUBLIC_URL, the host names (with `:port` when not the default) a
   * request may name for its mailed links; any other host gets {@link Config.localUrl}.
   */
  publicHosts: string[]
  /** Without PUBLIC_URL and an allowed host: the address the server was started for. */
  localUrl: string
  /** `WEBHOOK_ALLOWED_HOSTS`: internal hosts webhooks may reach (lower case, no brackets). */
  webhookAllowedHosts: string[]
  /** Fastify `trustProxy`: which hops may set X-Forwarded-For / -Proto. */
  trustProxy: boolean | string
  logLevel: string
  /**
   * `LOG_FORMAT`: `json` (one JSON object a line), `pretty` (a line a person reads) or `auto`
   * (pretty on a terminal, JSON otherwise, e.g. under a supervisor or piped to a collector).
   */
  logFormat: 'auto' | 'json' | 'pretty'
  /** Days the admin log keeps its records. */
  logRetentionDays: number
  rateLimitDisabled: boolean
  captcha: {
    provider: CaptchaProviderName
    powDifficulty: number
    turnstileSiteKey: string
    turnstileSecretKey: string
    turnstileVerifyUrl: string
  }
  smtp?: SmtpConfig
  containers: ContainerConfig
  ops: OpsConfig
}

/** Metrics and shutdown (see the README's "Operations"). */
export interface OpsConfig {
  /** `METRICS_TOKEN`: `/metrics` wants it as a bearer token; unset, only this machine may read it. */
  metricsToken?: string
  /** After SIGTERM, how long the server still accepts while saying it is not ready (load balancers notice). */
  shutdownDelayMs: number
  /** How long in-flight requests may take to finish once the server stops accepting. */
  shutdownTimeoutMs: number
}

/** Challenge containers (see the README's "Containers"). */
export interface ContainerConfig {
  /** `auto`: Docker when a daemon answers at start, else none. */
  backend: 'auto' | 'docker' | 'swarm' | 'none'
  /** `DOCKER_HOST` (`unix:///path`, `tcp://host:port`); unset means the local socket. */
  dockerHost?: string
  /** TLS files for a `tcp://` daemon (`DOCKER_CERT_PATH` with `DOCKER_TLS_VERIFY`). */
  dockerCertPath?: string
  /** The host name players use to reach published ports, and where it came from. */
  publicHost: string
  publicHostFrom: 'CONTAINER_PUBLIC_HOST' | 'PUBLIC_URL' | 'default'
  /** The bridge network challenge containers join (created when missing). */
  network: string
  /** Swarm: publish on the node that runs the task (`host`) or through the routing mesh. */
  swarmPublish: 'host' | 'ingress'
  /**
   * Container starts sent to the engine at once; the rest wait their turn. Null (unset): half the
   * engine's CPUs, at least one, since one start keeps a core busy and more at once only take
   * CPU from everything else (see the bench figures in the README).
   */
  startConcurrency: number | null
  pidsLimit: number
  /**
   * The organisers' challenge check: how long something may take to answer on the challenge's
   * port, and how long the container must keep running (counted from its start).
   */
  check: { listenMs: number; uptimeMs: number }
  /** How often expired containers are looked for. */
  reaperIntervalMs: number
  /**
   * `Default`: each container's port is published on the host (entry `host:port`).
   * `PlatformProxy`: nothing is published; players reach the container through the server's
   * WebSocket proxy (`/api/proxy/{id}`, entry = the container id).
   */
  portMapping: 'Default' | 'PlatformProxy'
  proxy: {
    /** Concurrent proxied connections one container accepts. */
    connectionLimit: number
    /** A proxied connection is closed after this long. */
    maxConnectionMs: number
  }
  /** Record proxied connections of challenges that ask for it (`CONTAINER_TRAFFIC_CAPTURE`). */
  trafficCapture: boolean
  /**
   * Private or special-purpose ranges the egress network may still reach
   * (`CONTAINER_EGRESS_ALLOW`, CIDRs separated by commas): an internal mirror, a test network.
   */
  egressAllow: string[]
}

type Env = Record<string, string | undefined>

function int(env: Env, key: string, fallback: number, min: number, max: number): number {
  const raw = env[key]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${key} must be an integer between ${min} and ${max}, got "${raw}"`)
  }
  return value
}

function bool(env: Env, key: string, fallback: boolean): boolean {
  const raw = env[key]?.trim().toLowerCase()
  if (!raw) return fallback
  if (['1', 'true', 'yes', 'on'].includes(raw)) return true
  if (['0', 'false', 'no', 'off'].includes(raw)) return false
  throw new Error(`${key} must be true or false, got "${env[key]}"`)
}

function str(env: Env, key: string): string | undefined {
  const raw = env[key]?.trim()
  return raw ? raw : undefined
}

/** One of a few lower-case words, given in any case; `fallback` when unset. */
function oneOf<T extends string>(env: Env, key: string, words: readonly T[], fallback: T): T {
  const raw = str(env, key)?.toLowerCase()
  if (raw === undefined) return fallback
  const found = words.find((w) => w === raw)
  if (!found) throw new Error(`${key} must be one of ${words.join(', ')}, got "${env[key]}"`)
  return found
}

const providers: CaptchaProviderName[] = ['None', 'HashPow', 'CloudflareTurnstile']

function captchaProvider(env: Env): CaptchaProviderName {
  const raw = str(env, 'CAPTCHA_PROVIDER') ?? 'None'
  const found = providers.find((p) => p.toLowerCase() === raw.toLowerCase())
  if (!found) throw new Error(`CAPTCHA_PROVIDER must be one of ${providers.join(', ')}, got "${raw}"`)
  return found
}

function smtp(env: Env): SmtpConfig | undefined {
  const host = str(env, 'SMTP_HOST')
  if (!host) return undefined
  const secure = bool(env, 'SMTP_SECURE', false)
  return {
    host,
    port: int(env, 'SMTP_PORT', secure ? 465 : 587, 1, 65535),
    secure,
    user: str(env, 'SMTP_USER'),
    password: env.SMTP_PASSWORD,
    from: str(env, 'SMTP_FROM') ?? `Pennant <noreply@${host}>`,
    rejectUnauthorized: bool(env, 'SMTP_REJECT_UNAUTHORIZED', true),
  }
}

/** `http://localhost:PORT` for a server on every interface, else its own address. */
function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host
  return `http://${name}${port === 80 ? '' : `:${port}`}`
}

function trustProxy(env: Env): boolean | string {
  const raw = str(env, 'TRUST_PROXY')
  if (!raw) return '127.0.0.1,::1'
  if (raw === 'true' || raw === 'false') return raw === 'true'
  return raw
}

/** CIDRs (`10.1.2.0/24`, `fd00::/64`, or an address alone) separated by commas. */
function cidrList(env: Env, key: string): string[] {
  const raw = str(env, key)
  if (!raw) return []
  return raw.split(',').map((item) => {
    const cidr = item.trim()
    const [addr = '', bits, extra] = cidr.split('/')
    const family = isIP(addr)
    const max = family === 6 ? 128 : 32
    if (
      !family ||
      extra !== undefined ||
      (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))
    )
      throw new Error(`${key} must list CIDRs such as 10.1.2.0/24, separated by commas; got "${cidr}"`)
    return bits === undefined ? `${addr}/${max}` : cidr
  })
}

function containerConfig(env: Env, publicUrl: string | undefined): ContainerConfig {
  const backend = (str(env, 'CONTAINER_BACKEND') ?? 'auto').toLowerCase()
  if (!['auto', 'docker', 'swarm', 'none'].includes(backend))
    throw new Error(`CONTAINER_BACKEND must be docker, swarm or none, got "${env.CONTAINER_BACKEND}"`)
  const swarmPublish = (str(env, 'CONTAINER_SWARM_PUBLISH') ?? 'host').toLowerCase()
  if (swarmPublish !== 'host' && swarmPublish !== 'ingress')
    throw new Error(`CONTAINER_SWARM_PUBLISH must be host or ingress, got "${env.CONTAINER_SWARM_PUBLISH}"`)
  const explicit = str(env, 'CONTAINER_PUBLIC_HOST')
  let fromUrl: string | undefined
  try {
    fromUrl = publicUrl ? new URL(publicUrl).hostname.replace(/^\[|\]$/g, '') : undefined
  } catch {
    throw new Error(`PUBLIC_URL must be a URL, got "${publicUrl}"`)
  }
  const mapping = (str(env, 'CONTAINER_PORT_MAPPING') ?? 'Default').toLowerCase()
  if (mapping !== 'default' && mapping !== 'platformproxy')
    throw new Error(
      `CONTAINER_PORT_MAPPING must be Default or PlatformProxy, got "${env.CONTAINER_PORT_MAPPING}"`,
    )
  const network = str(env, 'CONTAINER_NETWORK') ?? 'pennant-challenges'
  if (!/^[a-zA-Z0-9][a-zA-Z0-9_.-]{1,60}$/.test(network))
    throw new Error(`CONTAINER_NETWORK must be a Docker network name, got "${network}"`)
  return {
    backend: backend as ContainerConfig['backend'],
    dockerHost: str(env, 'DOCKER_HOST'),
    dockerCertPath: bool(env, 'DOCKER_TLS_VERIFY', false) ? str(env, 'DOCKER_CERT_PATH') : undefined,
    publicHost: explicit ?? fromUrl ?? '127.0.0.1',
    publicHostFrom: explicit ? 'CONTAINER_PUBLIC_HOST' : fromUrl ? 'PUBLIC_URL' : 'default',
    network,
    swarmPublish,
    startConcurrency: str(env, 'CONTAINER_START_CONCURRENCY')
      ? int(env, 'CONTAINER_START_CONCURRENCY', 1, 1, 64)
      : null,
    pidsLimit: int(env, 'CONTAINER_PIDS_LIMIT', 1024, 16, 1_000_000),
    check: {
      listenMs: int(env, 'CONTAINER_CHECK_LISTEN', 20, 1, 120) * 1000,
      uptimeMs: int(env, 'CONTAINER_CHECK_UPTIME', 30, 1, 120) * 1000,
    },
    reaperIntervalMs: int(env, 'CONTAINER_REAPER_INTERVAL', 30, 1, 3600) * 1000,
    portMapping: mapping === 'platformproxy' ? 'PlatformProxy' : 'Default',
    proxy: {
      connectionLimit: int(env, 'CONTAINER_PROXY_CONNECTION_LIMIT', 32, 1, 100_000),
      maxConnectionMs: int(env, 'CONTAINER_PROXY_MAX_SECONDS', 1800, 1, 7 * 86400) * 1000,
    },
    trafficCapture: bool(env, 'CONTAINER_TRAFFIC_CAPTURE', false),
    egressAllow: cidrList(env, 'CONTAINER_EGRESS_ALLOW'),
  }
}

function opsConfig(env: Env): OpsConfig {
  const metricsToken = str(env, 'METRICS_TOKEN')
  // A guessable token would publish what the metrics tell (traffic, queue sizes) to anyone.
  if (metricsToken !== undefined && metricsToken.length < 16)
    throw new Error('METRICS_TOKEN must be at least 16 characters long')
  return {
    metricsToken,
    shutdownDelayMs: int(env, 'SHUTDOWN_DELAY', 0, 0, 300) * 1000,
    shutdownTimeoutMs: int(env, 'SHUTDOWN_TIMEOUT', 10, 1, 3600) * 1000,
  }
}

/** Reads the environment once; see the README for each variable. */
export function loadConfig(env: Env): Config {
  // Relative paths mean relative to where the user ran npm, not to the workspace npm switches to.
  const base = env.INIT_CWD ?? process.cwd()
  const dataDir = path.resolve(base, str(env, 'DATA_DIR') ?? './data')
  const publicUrl = str(env, 'PUBLIC_URL')?.replace(/\/+$/, '')
  const port = int(env, 'PORT', 8080, 0, 65535)
  const host = str(env, 'HOST') ?? '0.0.0.0'
  return {
    port,
    host,
    dataDir,
    webDir: path.resolve(str(env, 'WEB_DIR') ?? path.join(serverDir, '../web/dist')),
    databaseUrl: str(env, 'DATABASE_URL'),
    redisUrl: str(env, 'REDIS_URL'),
    redisPrefix: str(env, 'REDIS_PREFIX') ?? 'pennant:',
    adminPassword: env.PENNANT_ADMIN_PASSWORD || undefined,
    publicUrl,
    publicHosts: (str(env, 'PUBLIC_HOSTS') ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    localUrl: localUrl(host, port),
    webhookAllowedHosts: (str(env, 'WEBHOOK_ALLOWED_HOSTS') ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .replace(/^\[|\]$/g, '')
          .replace(/\.$/, '')
          .toLowerCase(),
      )
      .filter(Boolean),
    trustProxy: trustProxy(env),
    logLevel: str(env, 'LOG_LEVEL') ?? 'info',
    logFormat: oneOf(env, 'LOG_FORMAT', ['auto', 'json', 'pretty'] as const, 'auto'),
    logRetentionDays: int(env, 'LOG_RETENTION_DAYS', 30, 1, 3650),
    rateLimitDisabled: bool(env, 'DISABLE_RATE_LIMIT', false),
    captcha: {
      provider: captchaProvider(env),
      powDifficulty: int(env, 'CAPTCHA_POW_DIFFICULTY', 18, 8, 48),
      turnstileSiteKey: str(env, 'TURNSTILE_SITE_KEY') ?? '',
      turnstileSecretKey: str(env, 'TURNSTILE_SECRET_KEY') ?? '',
      turnstileVerifyUrl:
        str(env, 'TURNSTILE_VERIFY_URL') ?? 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    },
    smtp: smtp(env),
    containers: containerConfig(env, publicUrl),
    ops: opsConfig(env),
  }
}
