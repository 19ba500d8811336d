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
