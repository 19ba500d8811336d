import { randomInt } from 'node:crypto'
import type Docker from 'dockerode'
import {
  bridgeName,
  buildImage,
  createIfMissing,
  createImagePorts,
  faultMessage,
  networkName,
  networkOptions,
  oncePerKey,
  outputLines,
  protocolsFor,
  statusOf,
  toContainerError,
} from './engine.ts'
import {
  type BackendInfo,
  type ContainerBackend,
  ContainerError,
  type ContainerSpec,
  LABEL,
  type ListedContainer,
  type StartedContainer,
} from './index.ts'
import { bridgeOf, createIsolation } from './isolation.ts'

/**
 * Capabilities a challenge does without: raw sockets (spoofing and sniffing on the bridge),
 * device nodes, the audit log and file capabilities. What services commonly need to drop
 * root (setuid, setgid, chown, chroot, low ports) stays.
 */
export const DROPPED_CAPABILITIES = ['NET_RAW', 'MKNOD', 'AUDIT_WRITE', 'SETFCAP', 'SETPCAP']

/** A storage driver that can cap a container's writable layer (overlay2 only on xfs with quotas). */
function mayLimitStorage(info: { Driver?: string; DriverStatus?: [string, string][] }): boolean {
  const backing = info.DriverStatus?.find(([k]) => k === 'Backing Filesystem')?.[1]
  if (info.Driver === 'overlay2') return backing === 'xfs'
  return ['btrfs', 'zfs', 'devicemapper', 'windowsfilter'].includes(info.Driver ?? '')
}

type PortMap = Record<string, { HostIp: string; HostPort: string }[] | null> | undefined

/**
 * The one host port a challenge port is published on, read back from the engine: every binding
 * (IPv4 and IPv6, TCP and UDP) must name the same port, or players would be sent to the wrong one.
 */
export function publishedPort(ports: PortMap, port: number): number {
  const bound = Object.entries(ports ?? {})
    .filter(([k]) => k.startsWith(`${port}/`))
    .flatMap(([, v]) => v ?? [])
  const distinct = [...new Set(bound.map((b) => b.HostPort))]
  if (distinct.length !== 1)
    throw new ContainerError(
      'StartFailed',
      `the port was published on ${distinct.length ? bound.map((b) => `${b.HostIp || '*'}:${b.HostPort}`).join(', ') : 'no host port'}, not on one host port`,
    )
  return Number(distinct[0])
}

/** Standalone Docker Engine: one container per instance, its port published on the host. */
export function createDockerBackend(deps: {
  docker: Docker
  /** Base name of the challenge networks. */
  network: string
  pidsLimit: number
  /** Ranges the egress network may reach despite being private (`CONTAINER_EGRESS_ALLOW`). */
  egressAllow?: string[]
  warn: (message: string) => void
  info?: (message: string) => void
}): ContainerBackend {
  const { docker } = deps
  const exposedPorts = createImagePorts(docker)
  let engine: Promise<{ cpus: number; storage: boolean; version: string }> | null = null

  /** What the engine is, read once (and again after a failure). */
  function engineInfo() {
    engine ??= Promise.all([docker.info(), docker.version()]).then(
      ([info, version]) => ({
        cpus: Number(info.NCPU) || 1,
        storage: mayLimitStorage(info),
        version: String(version.Version ?? ''),
      }),
      (err: unknown) => {
        engine = null
        throw toContainerError(err, 'asking the engine')
      },
    )
    return engine
  }

  const ensureNetwork = oncePerKey((egress: boolean) =>
    createIfMissing(() =>
      docker.createNetwork({
        Name: networkName(deps.network, egress),
        Driver: 'bridge',
        CheckDuplicate: true,
        Options: networkOptions(networkName(deps.network, egress), egress),
        Labels: { [LABEL.platform]: 'shared' },
      }),
    ),
  )

  const isolation = createIsolation({
    docker,
    allow: deps.egressAllow ?? [],
    swarm: false,
    named: [true, false].map((egress) => {
      const network = networkName(deps.network, egress)
      return { network, egress, iface: bridgeName(network, egress), ipv6: false }
    }),
    warn: deps.warn,
    info: deps.info,
    async bridges() {
      return Promise.all(
        [true, false].map(async (egress) => {
          await ensureNetwork(egress)
          const network = networkName(deps.network, egress)
          return { network, egress, ...bridgeOf(await docker.getNetwork(network).inspect()) }
        }),
      )
    },
  })

  async function remove(id: string): Promise<void> {
    try {
      await docker.getContainer(id).remove({ force: true, v: true })
    } catch (err) {
      // Gone already, or being removed by another call: either way it will not run again.
      if (statusOf(err) === 404 || (statusOf(err) === 409 && /in progress/i.test(faultMessage(err)))) return
      throw toContainerError(err, 'removing the container')
    }
  }

  async function create(spec: ContainerSpec, limitStorage: boolean, hostPort: string) {
    const { cpus } = await engineInfo()
    const protocols = protocolsFor(await exposedPorts(spec.image), spec.port)
    const ports = protocols.map((p) => `${spec.port}/${p}`)
    const memory = spec.memoryMb * 1024 * 1024
    return docker.createContainer({
      name: `pennant-${spec.instanceId}`,
      Image: spec.image,
      Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
      Labels: spec.labels,
      ExposedPorts: Object.fromEntries(ports.map((p) => [p, {}])),
      HostConfig: {
        // Behind the platform proxy nothing is published: only the platform reaches the port.
        PortBindings: spec.publish ? Object.fromEntries(ports.map((p) => [p, [{ HostPort: hostPort }]])) : {},
        Memory: memory,
        MemorySwap: memory,
        // A limit above the machine's size means no limit; the engine would refuse it.
        NanoCpus: Math.min(spec.cpuTenths * 100_000_000, cpus * 1_000_000_000),
        PidsLimit: deps.pidsLimit,
        SecurityOpt: ['no-new-privileges:true'],
        CapDrop: DROPPED_CAPABILITIES,
        NetworkMode: networkName(deps.network, spec.egress),
        RestartPolicy: { Name: 'no' },
        LogConfig: { Type: 'json-file', Config: { 'max-size': '1m', 'max-file': '1' } },
        ...(limitStorage ? { StorageOpt: { size: `${spec.storageMb}M` } } : {}),
      },
    })
  }

  /** Creates and starts; a failed attempt removes what it made. */
  async function attempt(spec: ContainerSpec): Promise<StartedContainer> {
    const info = await engineInfo()
    for (let tries = 0; ; tries++) {
      // The host port is chosen here, not by the engine: left to itself, Docker allocates IPv4
      // and IPv6 (and TCP and UDP) separately, and one instance could get 0.0.0.0:32786 and
      // [::]:32785, so a player on IPv6 would reach nothing or another team. Taken: choose again.
      const hostPort = spec.publish ? String(randomInt(32768, 61000)) : ''
      let container: Docker.Container
      try {
        container = await create(spec, info.storage, hostPort)
      } catch (err) {
        if (info.storage && statusOf(err) !== undefined && /storage|quota/i.test(faultMessage(err))) {
          deps.warn(`storage limits are not enforced: the engine refused them (${faultMessage(err)})`)
          info.storage = false
          continue
        }
        throw toContainerError(err, 'creating the container', { creating: true })
      }
      try {
        await container.start()
        const state = await container.inspect()
        if (!state.State.Running) {
          const why =
            state.State.Error ||
            `exited with code ${state.State.ExitCode}${state.State.OOMKilled ? ', killed for memory (OOMKilled)' : ''}`
          throw new ContainerError('StartFailed', `the container stopped at once (${why})`)
        }
        const net = state.NetworkSettings.Networks[networkName(deps.network, spec.egress)]
        return {
          backendId: state.Id,
          ip: net?.IPAddress ?? '',
          port: spec.port,
          publicPort: spec.publish ? publishedPort(state.NetworkSettings.Ports, spec.port) : null,
          publicHost: null,
          startedAt: new Date(state.State.StartedAt || Date.now()),
        }
      } catch (err) {
        await remove(container.id).catch(() => {})
        if (spec.publish && tries < 5 && /already allocated|address already in use/i.test(faultMessage(err)))
          continue
        throw toContainerError(err, 'starting the container')
      }
    }
  }

  return {
    name: 'docker',

    async start(spec) {
      await ensureNetwork(spec.egress)
      // No container runs before the rules that keep it off the host are in place.
      await isolation.ensure()
      return attempt(spec)
    },

    destroy: remove,

    async inspect(id) {
      try {
        const state = await docker.getContainer(id).inspect()
        return {
          running: state.State.Running,
          exitCode: state.State.Running ? null : state.State.ExitCode,
          oomKilled: state.State.OOMKilled,
          error: state.State.Error ?? '',
        }
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'inspecting the container')
      }
    },

    async logs(id, lines) {
      try {
        const raw = await docker
          .getContainer(id)
          .logs({ stdout: true, stderr: true, tail: lines, follow: false })
        return outputLines(raw, lines)
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'reading the container’s output')
      }
    },

    async target(id, port) {
      try {
        const state = await docker.getContainer(id).inspect()
        if (!state.State.Running) return null
        const nets = state.NetworkSettings.Networks
        const net = nets[networkName(deps.network, true)] ?? nets[networkName(deps.network, false)]
        return net?.IPAddress ? { host: net.IPAddress, port } : null
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'inspecting the container')
      }
    },

    async list(labels): Promise<ListedContainer[]> {
      try {
        const rows = await docker.listContainers({
          all: true,
          filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) },
        })
        return rows.map((r) => ({
          backendId: r.Id,
          instanceId: r.Labels[LABEL.instance] ?? null,
          running: r.State === 'running',
        }))
      } catch (err) {
        throw toContainerError(err, 'listing containers')
      }
    },

    async info(): Promise<BackendInfo> {
      const e = await engineInfo()
      return { name: 'docker', version: e.version, storageLimits: e.storage, cpus: e.cpus }
    },

    isolation,

    build: (context, tag) => buildImage(docker, context, tag),
    async close() {},
  }
}
