import { Type } from 'typebox'
import { ChallengeCategory } from '../../http/enums.ts'
import { Enum, Nullable } from '../../http/schema.ts'

export const ContainerStatusValues = { Pending: 0, Running: 1, Destroyed: 2 } as const
export const ContainerStatus = Enum('ContainerStatus', ContainerStatusValues)

/** A container as its team (or the organiser testing it) sees it. */
export const ContainerInfoModel = Type.Object({
  status: ContainerStatus,
  startedAt: Type.Integer(),
  /** When the reaper stops it, unless it is extended. */
  expectStopAt: Type.Integer(),
  /** `host:port` to connect to. */
  entry: Type.String(),
})

const TeamModel = Type.Object({ id: Type.Integer(), name: Type.String(), avatar: Nullable(Type.String()) })
const ChallengeModel = Type.Object({ id: Type.Integer(), title: Type.String(), category: ChallengeCategory })

/** A team's container in the admin list. */
export const ContainerInstanceModel = Type.Object({
  team: Nullable(TeamModel),
  challenge: Nullable(ChallengeModel),
  /** Pennant addition: the game it belongs to, for filtering (null once the game is deleted). */
  game: Nullable(Type.Object({ id: Type.Integer(), title: Type.String() })),
  image: Type.String(),
  containerGuid: Type.String({ format: 'uuid' }),
  /** The engine's id (Docker container or Swarm service). */
  containerId: Type.String(),
  startedAt: Type.Integer(),
  expectStopAt: Type.Integer(),
  /** The public address, else the internal one. */
  ip: Type.String(),
  port: Type.Integer(),
})

/** Pennant addition (`/api/ext/containers/status`): what runs the containers, for admin screens. */
export const ContainerBackendStatus = Type.Object({
  /** `none` when containers are off. */
  backend: Type.Union([Type.Literal('docker'), Type.Literal('swarm'), Type.Literal('none')]),
  /** The engine answers now. */
  available: Type.Boolean(),
  version: Nullable(Type.String()),
  /** Why it is unavailable, in the engine's words. */
  message: Nullable(Type.String()),
  /** The host in players' entries. */
  publicHost: Type.String(),
  storageLimits: Type.Boolean(),
  /**
   * Whether challenge containers are kept off the host and private networks (firewall rules
   * checked by a probe at start); null when containers are off.
   */
  isolation: Nullable(
    Type.Object({
      state: Type.Union([
        Type.Literal('checking'),
        Type.Literal('isolated'),
        Type.Literal('unverified'),
        Type.Literal('exposed'),
      ]),
      /** What is wrong, for the operator. */
      message: Nullable(Type.String()),
      /** How long the probe took, in milliseconds. */
      probeMs: Nullable(Type.Integer()),
    }),
  ),
})

const CheckStep = Type.Union([
  Type.Literal('image'),
  Type.Literal('start'),
  Type.Literal('listen'),
  Type.Literal('uptime'),
  Type.Literal('memory'),
  Type.Literal('flag'),
])

/** Pennant addition: the organisers' check of a container challenge, as a checklist. */
export const ContainerCheckModel = Type.Object({
  /** No step failed. */
  passed: Type.Boolean(),
  image: Type.String(),
  port: Type.Integer(),
  /** In order; a step after a failure that made it impossible is `skipped`. */
  steps: Type.Array(
    Type.Object({
      step: CheckStep,
      status: Type.Union([Type.Literal('passed'), Type.Literal('failed'), Type.Literal('skipped')]),
      /** What was seen: the engine's own words where a step failed. */
      detail: Type.String(),
    }),
  ),
  checkedAt: Type.Integer(),
  durationMs: Type.Integer(),
})

/** Pennant addition: the last lines a container wrote (stdout and stderr, in order). */
export const ContainerLogsModel = Type.Object({
  lines: Type.Array(Type.String()),
})
