import { randomInt } from 'node:crypto'
import type Docker from 'dockerode'
import { DROPPED_CAPABILITIES } from './docker.ts'
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
  sleep,
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

interface Task {
  ID: string
  NodeID?: string
  Status?: {
    State?: string
    Err?: string
    ContainerStatus?: { ContainerID?: string; ExitCode?: number }
    PortStatus?: { Ports?: { Protocol?: string; TargetPort?: number; PublishedPort?: number }[] }
  }
  NetworksAttachments?: { Network?: { Spec?: { Name?: string } }; Addresses?: string[] }[]
}

const FAILED = new Set(['failed', 'rejected', 'shutdown', 'remove', 'orphaned', 'complete'])
/** How long a task may take to run (the node may be pulling the image). */
const START_TIMEOUT_MS = 120_000

/**
 * Docker Swarm: one replicated service (one replica, never restarted) per instance. The port is
 * published on the node that runs the task (`host`), or through the routing mesh (`ingress`,
 * which needs IPVS in the node's kernel).
 */
export function createSwarmBackend(deps: {
  docker: Docker
  network: string
  pidsLimit: number
  publish: 'host' | 'ingress'
  egressAllow?: string[]
  warn: (message: string) => void
  info?: (message: string) => void
}): ContainerBackend {
  const { docker } = deps
  // Another node may hold the image the manager lacks: a failed pull here only means "TCP".
  const exposedPorts = createImagePorts(docker)
  const swarmNetwork = (egress: boolean) => `${networkName(deps.network, egress)}-swarm`

  /** A swarm-scoped bridge on every node, its options (no traffic between teams) from a config network. */
  const ensureNetwork = oncePerKey(async (egress: boolean) => {
    const name = swarmNetwork(egress)
    await createIfMissing(() =>
      docker.createNetwork({
        Name: `${name}-config`,
        ConfigOnly: true,
        CheckDuplicate: true,
        Options: networkOptions(name, egress),
      } as Docker.NetworkCreateOptions),
    )
    await createIfMissing(() =>
      docker.createNetwork({
        // Driver and options come from the config network; the engine refuses any given here.
        Name: name,
        Driver: 'bridge',
        Scope: 'swarm',
        CheckDuplicate: true,
        ConfigFrom: { Network: `${name}-config` },
      } as Docker.NetworkCreateOptions),
    )
  })

  // Each node has its own bridge of these networks: this server can set rules on its own only.
  const isolation = createIsolation({
    docker,
    allow: deps.egressAllow ?? [],
    swarm: true,
    named: [true, false].map((egress) => {
      const network = swarmNetwork(egress)
      return { network, egress, iface: bridgeName(network, egress), ipv6: false }
    }),
    warn: deps.warn,
    info: deps.info,
    async bridges() {
      return Promise.all(
        [true, false].map(async (egress) => {
          await ensureNetwork(egress)
          const network = swarmNetwork(egress)
          const [net, config] = await Promise.all([
            docker.getNetwork(network).inspect(),
            docker.getNetwork(`${network}-config`).inspect(),
          ])
          return { network, egress, ...bridgeOf({ ...net, Options: config.Options }) }
        }),
      )
    },
  })

  async function remove(id: string): Promise<void> {
    try {
      await docker.getService(id).remove()
    } catch (err) {
      if (statusOf(err) === 404) return
      throw toContainerError(err, 'removing the service')
    }
  }

  async function tasksOf(serviceId: string): Promise<Task[]> {
    return (await docker.listTasks({ filters: { service: [serviceId] } })) as Task[]
  }

  /** Waits for the service's task to run, or fails with the task's own error. */
  async function running(serviceId: string, image: string): Promise<Task> {
    const deadline = Date.now() + START_TIMEOUT_MS
    for (let delay = 100; ; delay = Math.min(delay * 1.5, 1000)) {
      const tasks = await tasksOf(serviceId)
      const task = tasks.find((t) => t.Status?.State === 'running')
      if (task) return task
      const failed = tasks.find((t) => FAILED.has(t.Status?.State ?? ''))
      if (failed) {
        const err = failed.Status?.Err ?? failed.Status?.State ?? 'failed'
        if (/no such image|pull access denied|manifest unknown|not found/i.test(err))
          throw new ContainerError('ImageNotFound', `${image}: ${err}`)
        throw new ContainerError('StartFailed', `the task did not run (${err})`)
      }
      if (Date.now() > deadline) throw new ContainerError('StartFailed', 'the task did not start in time')
      await sleep(delay)
    }
  }

  async function publishedPort(serviceId: string, task: Task, port: number): Promise<number | null> {
    const match = (p: { Protocol?: string; TargetPort?: number; PublishedPort?: number }) =>
      p.TargetPort === port && p.PublishedPort
    if (deps.publish === 'host') return task.Status?.PortStatus?.Ports?.find(match)?.PublishedPort ?? null
    const service = await docker.getService(serviceId).inspect()
    return (service.Endpoint?.Ports ?? []).find(match)?.PublishedPort ?? null
  }

  /** The node's own address, where a host-mode port is published. */
  async function nodeAddress(task: Task): Promise<string | null> {
    if (deps.publish !== 'host' || !task.NodeID) return null
    const node = await docker.getNode(task.NodeID).inspect()
    const addr = node.Status?.Addr as string | undefined
    return addr && addr !== '0.0.0.0' ? addr : null
  }

  /** The task's address on the challenge network (from the task, else from its container). */
  async function taskAddress(task: Task, network: string): Promise<string> {
    const attached = task.NetworksAttachments?.find((a) => a.Network?.Spec?.Name === network)
    const cidr = attached?.Addresses?.[0]
    if (cidr) return cidr.split('/')[0] ?? ''
    const id = task.Status?.ContainerStatus?.ContainerID
    if (!id) return ''
    try {
      const state = await docker.getContainer(id).inspect()
      return state.NetworkSettings.Networks[network]?.IPAddress ?? ''
    } catch {
      return '' // the task runs on another node
    }
  }

  async function attempt(spec: ContainerSpec): Promise<StartedContainer> {
    let exposed = new Set<string>()
    try {
      exposed = await exposedPorts(spec.image)
    } catch (err) {
      if (!(err instanceof ContainerError) || err.failure !== 'ImageNotFound') throw err
    }
    const protocols = protocolsFor(exposed, spec.port)
    const network = swarmNetwork(spec.egress)
    for (let tries = 0; ; tries++) {
      // As with Docker: TCP and UDP of one port share a published port we choose.
      const published = protocols.length > 1 ? randomInt(32768, 61000) : undefined
      let serviceId: string
      try {
        const created = (await docker.createService({
          Name: `pennant-${spec.instanceId}`,
          Labels: spec.labels,
          TaskTemplate: {
            ContainerSpec: {
              Image: spec.image,
              Env: Object.entries(spec.env).map(([k, v]) => `${k}=${v}`),
              Labels: spec.labels,
              // Engines that do not know these fields ignore them.
              Privileges: { NoNewPrivileges: true },
              CapabilityDrop: DROPPED_CAPABILITIES,
            },
            Resources: {
              Limits: {
                NanoCPUs: spec.cpuTenths * 100_000_000,
                MemoryBytes: spec.memoryMb * 1024 * 1024,
                Pids: deps.pidsLimit,
              },
            },
            RestartPolicy: { Condition: 'none', MaxAttempts: 0 },
            Networks: [{ Target: network }],
            LogDriver: { Name: 'json-file', Options: { 'max-size': '1m', 'max-file': '1' } },
          },
          EndpointSpec: {
            Mode: 'vip',
            Ports: protocols.map((p) => ({
              Protocol: p,
              TargetPort: spec.port,
              PublishMode: deps.publish,
              ...(published ? { PublishedPort: published } : {}),
            })),
          },
        } as unknown as Docker.CreateServiceOptions)) as { id?: string; ID?: string }
        serviceId = created.id ?? created.ID ?? ''
      } catch (err) {
        if (published && tries < 5 && /already in use|conflict/i.test(faultMessage(err))) continue
        throw toContainerError(err, 'creating the service', { creating: true })
      }
      try {
        const task = await running(serviceId, spec.image)
        return {
          backendId: serviceId,
          ip: await taskAddress(task, network),
          port: spec.port,
          publicPort: await publishedPort(serviceId, task, spec.port),
          publicHost: await nodeAddress(task),
          startedAt: new Date(),
        }
      } catch (err) {
        await remove(serviceId).catch(() => {})
        throw toContainerError(err, 'starting the service')
      }
    }
  }

  return {
    name: 'swarm',

    async start(spec) {
      await ensureNetwork(spec.egress)
      await isolation.ensure()
      return attempt(spec)
    },

    destroy: remove,

    async inspect(id) {
      try {
        await docker.getService(id).inspect()
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'inspecting the service')
      }
      const tasks = await tasksOf(id)
      const task = tasks.find((t) => t.Status?.State === 'running') ?? tasks[0]
      const running = task?.Status?.State === 'running'
      return {
        running,
        exitCode: running ? null : (task?.Status?.ContainerStatus?.ExitCode ?? null),
        // A task's status does not say whether the kernel killed it for memory.
        oomKilled: null,
        error: running ? '' : (task?.Status?.Err ?? ''),
      }
    },

    async logs(id, lines) {
      try {
        const raw = await docker
          .getService(id)
          .logs({ stdout: true, stderr: true, tail: lines, follow: false })
        return outputLines(raw as unknown as Buffer, lines)
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'reading the service’s output')
      }
    },

    // Swarm publishes the port even behind the platform proxy: a task's overlay address is not
    // reachable from a platform that is not itself a service on that network, its node's port is.
    async target(id, port) {
      let tasks: Task[]
      try {
        tasks = await tasksOf(id)
      } catch (err) {
        if (statusOf(err) === 404) return null
        throw toContainerError(err, 'inspecting the service')
      }
      const task = tasks.find((t) => t.Status?.State === 'running')
      if (!task?.NodeID) return null
      const published = await publishedPort(id, task, port)
      const node = await docker.getNode(task.NodeID).inspect()
      const addr = node.Status?.Addr as string | undefined
      if (!published || !addr || addr === '0.0.0.0') return null
      return { host: addr, port: published }
    },

    async list(labels): Promise<ListedContainer[]> {
      try {
        const services = await docker.listServices({
          filters: { label: Object.entries(labels).map(([k, v]) => `${k}=${v}`) },
        })
        return services.map((s) => ({
          backendId: s.ID ?? '',
          instanceId: s.Spec?.Labels?.[LABEL.instance] ?? null,
          running: true,
        }))
      } catch (err) {
        throw toContainerError(err, 'listing services')
      }
    },

    async info(): Promise<BackendInfo> {
      try {
        const [version, nodes] = await Promise.all([
          docker.version(),
          docker.listNodes() as Promise<
            { Status?: { State?: string }; Description?: { Resources?: { NanoCPUs?: number } } }[]
          >,
        ])
        // Tasks run on every ready node, so their CPUs together bound how many starts help.
        const nanoCpus = nodes
          .filter((n) => n.Status?.State === 'ready')
          .reduce((sum, n) => sum + (n.Description?.Resources?.NanoCPUs ?? 0), 0)
        return {
          name: 'swarm',
          version: String(version.Version ?? ''),
          storageLimits: false,
          cpus: Math.max(1, Math.round(nanoCpus / 1e9)),
        }
      } catch (err) {
        throw toContainerError(err, 'asking the engine')
      }
    },

    isolation,

    build: (context, tag) => buildImage(docker, context, tag),
    async close() {},
  }
}
