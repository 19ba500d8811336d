import type { containers } from '../../db/schema.ts'
import { nameOf } from '../../http/enums.ts'
import { ContainerStatusValues } from './containers.schemas.ts'

export type ContainerRow = typeof containers.$inferSelect

/** Where players connect: the container id through the platform proxy, else `host:port`. */
export const presentEntry = (c: ContainerRow) =>
  c.isProxy ? c.id : `${c.publicIp ?? c.ip}:${c.publicPort ?? c.port}`

export const presentContainerInfo = (c: ContainerRow) => ({
  status: nameOf(ContainerStatusValues, c.status),
  startedAt: c.startedAt.getTime(),
  expectStopAt: c.expectStopAt.getTime(),
  entry: presentEntry(c),
})
export type ContainerInfo = ReturnType<typeof presentContainerInfo>
