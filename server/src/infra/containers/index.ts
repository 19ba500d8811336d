import type { Isolation } from './isolation.ts'

/**
 * The container port: starts, inspects, lists and removes challenge containers. Docker and
 * Docker Swarm implement it today; the words here (a workload with an image, one exposed port,
 * limits, environment and labels) map onto Kubernetes pods and services just as well.
 */

/** What to run. */
export interface ContainerSpec {
  /** Our id for it (the `containers` row); the backend names and labels it after this. */
  instanceId: string
  image: string
  /** The port the challenge listens on inside the container. */
  port: number
  /** Limits, in the challenge's units: MiB, tenths of a CPU, MiB. */
  memoryMb: number
  cpuTenths: number
  storageMb: number
  env: Record<string, string>
  /** Marks it as ours: platform, game, challenge, team, instance. */
  labels: Record<string, string>
  /** False puts it on the network without a route to the internet. */
  egress: boolean
  /**
   * Whether players reach the port directly (published on a host port). False when the platform
   * proxy carries their connections: then only {@link ContainerBackend.target} matters.
   */
  publish: boolean
}

/** Where the platform itself opens TCP connections to a container's service. */
export interface ContainerTarget {
  host: string
  port: number
}

/** A started container, as the backend reports it. */
export interface StartedContainer {
  /** The backend's handle (Docker container id, Swarm service id). */
  backendId: string
  /** Where the platform reaches the challenge: the container's address and the exposed port. */
  ip: string
  port: number
  /** Where players reach it: the published port, and the host when the backend knows it better
   * than the platform's public host (a Swarm node). */
  publicPort: number | null
  publicHost: string | null
  startedAt: Date
}

/** What the engine says about a container now. */
export interface ContainerState {
  running: boolean
  /** Its exit code once it stopped (null while it runs, or when the backend does not say). */
  exitCode: number | null
  /** Whether the kernel killed it for going over its memory limit (null: the backend cannot tell). */
  oomKilled: boolean | null
  /** The engine's own words about why it stopped, if any. */
  error: string
}

/** A container of ours found on the backend. */
export interface ListedContainer {
  backendId: string
  /** The `containers` row it was started for (its instance label). */
  instanceId: string | null
  running: boolean
}

/** Why a start or removal failed, in terms a person can act on. */
export type ContainerFailure =
  /** The image is not on the engine and could not be pulled. */
  | 'ImageNotFound'
  /** The engine does not answer. */
  | 'Unreachable'
  /** The engine refused the challenge's limits (or other settings). */
  | 'InvalidLimits'
  /** It was created but did not keep running, or the engine failed otherwise. */
  | 'StartFailed'

export class ContainerError extends Error {
  constructor(
    readonly failure: ContainerFailure,
    /** The engine's own message: for admins and the log, not for players. */
    readonly detail: string,
  ) {
    super(`${failure}: ${detail}`)
  }
}

/** What the admin screens show about the engine. */
export interface BackendInfo {
  name: 'docker' | 'swarm'
  version: string
  /** Whether storage limits are enforced (Docker needs overlay2 on xfs with quotas for it). */
  storageLimits: boolean
  /** CPUs that run the containers: the engine's, or a swarm's ready nodes' together. */
  cpus: number
}

export interface ContainerBackend {
  readonly name: 'docker' | 'swarm'
  /** Creates and starts the container, waiting until it runs; nothing is left behind on failure. */
  start(spec: ContainerSpec): Promise<StartedContainer>
  /** Stops and removes it; a container that is already gone counts as removed. */
  destroy(backendId: string): Promise<void>
  /** Whether it still runs, and why it stopped if it did (null: it is gone). */
  inspect(backendId: string): Promise<ContainerState | null>
  /** The last `lines` lines of its output (stdout and stderr in order); null when it is gone. */
  logs(backendId: string, lines: number): Promise<string[] | null>
  /**
   * Where the platform connects to the container's `port` (for the proxy), as the backend sees
   * it now; null when it is gone or not running.
   */
  target(backendId: string, port: number): Promise<ContainerTarget | null>
  /** Every container carrying all of these labels. */
  list(labels: Record<string, string>): Promise<ListedContainer[]>
  info(): Promise<BackendInfo>
  /**
   * Builds an image from a build context (a tar archive, `Dockerfile` at its top) on the engine
   * this backend talks to (with Swarm: the manager's; other nodes need it from a registry).
   */
  build(context: Buffer, tag: string): Promise<{ id: string; log: string[] }>
  /** The firewall that keeps containers off the host and private networks (see isolation.ts). */
  readonly isolation: Isolation
  close(): Promise<void>
}

/** Label keys: every container we start carries them. */
export const LABEL = {
  platform: 'pennant.platform',
  instance: 'pennant.instance',
  game: 'pennant.game',
  challenge: 'pennant.challenge',
  team: 'pennant.team',
} as const
