import { execFile } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import type Docker from 'dockerode'
import { faultMessage, pullImage, statusOf } from './engine.ts'

/**
 * Keeps challenge containers inside their own instance: firewall rules (iptables, in chains of
 * our own) refuse every new connection from a challenge bridge to the host itself (INPUT: any of
 * its addresses, the gateway included) and to private and special-purpose ranges (FORWARD, via
 * DOCKER-USER); the network without egress gets no new forwarded connection at all. Replies to
 * connections made *to* the container (published ports, the platform proxy) still pass. A probe
 * container then checks that the host does not answer.
 */

const run = promisify(execFile)

/** Where a challenge network's traffic enters the host. */
export interface Bridge {
  /** The Docker network's name. */
  network: string
  /** The Linux bridge interface of that network on this host. */
  iface: string
  egress: boolean
  ipv6: boolean
}

/** What the admin screen shows. */
export interface IsolationStatus {
  /**
   * `checking`: the probe runs; `isolated`: the rules are in place and the probe could not reach
   * the host; `unverified`: the rules could not be installed or checked (see `message`);
   * `exposed`: a probe container reached the host.
   */
  state: 'checking' | 'isolated' | 'unverified' | 'exposed'
  message: string | null
  /** How long the probe took. */
  probeMs: number | null
}

/** IPv4 ranges a container must not reach: private, shared, loopback, link-local (metadata), documentation, benchmarking, multicast, reserved. */
export const BLOCKED_V4 = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.0.0.0/24',
  '192.0.2.0/24',
  '192.88.99.0/24',
  '192.168.0.0/16',
  '198.18.0.0/15',
  '198.51.100.0/24',
  '203.0.113.0/24',
  '224.0.0.0/4',
  '240.0.0.0/4',
]

/** The same for IPv6: unspecified, loopback, v4-mapped, NAT64 (reaches v4 private ranges), unique local, link-local, documentation, multicast. */
export const BLOCKED_V6 = [
  '::/128',
  '::1/128',
  '::ffff:0:0/96',
  '64:ff9b::/96',
  '64:ff9b:1::/48',
  '100::/64',
  '2001::/23',
  '2001:db8::/32',
  'fc00::/7',
  'fe80::/10',
  'ff00::/8',
]

/** Chains we own: the INPUT hook, the forwarding hook, and one per bridge. */
export const INPUT_CHAIN = 'PENNANT-ISOLATE-IN'
export const FORWARD_CHAIN = 'PENNANT-ISOLATE'
export const bridgeChain = (iface: string) => `PENNANT-${iface}`

/** The interface a network's bridge has: the name we gave it, else Docker's `br-<id>`. */
export function bridgeOf(network: {
  Name: string
  Id: string
  EnableIPv6?: boolean
  Options?: Record<string, string> | null
}): { iface: string; ipv6: boolean } {
  return {
    iface: network.Options?.['com.docker.network.bridge.name'] ?? `br-${network.Id.slice(0, 12)}`,
    ipv6: Boolean(network.EnableIPv6),
  }
}

type Family = 'v4' | 'v6'
type Rule = string[]

/** The rules of one bridge, per chain, as iptables arguments after `-A <chain>`. */
export function rulesFor(bridge: Bridge, family: Family, allow: string[]) {
  const notReply = ['-m', 'conntrack', '!', '--ctstate', 'ESTABLISHED,RELATED']
  const own = bridgeChain(bridge.iface)
  const allowed = allow.filter((cidr) => cidr.includes(':') === (family === 'v6'))
  const body: Rule[] = bridge.egress
    ? [
        ...allowed.map((cidr) => ['-d', cidr, '-j', 'RETURN']),
        ...(family === 'v4' ? BLOCKED_V4 : BLOCKED_V6).map((cidr) => ['-d', cidr, '-j', 'REJECT']),
      ]
    : [['-j', 'REJECT']]
  return {
    input: ['-i', bridge.iface, ...notReply, '-j', 'REJECT'],
    forward: ['-i', bridge.iface, ...notReply, '-j', own],
    own,
    body,
  }
}

export type Runner = (cmd: string, args: string[]) => Promise<string>

const iptables: Runner = async (cmd, args) => (await run(cmd, ['-w', '10', ...args])).stdout

/** Why an iptables call failed, in words an operator can act on. */
function why(err: unknown, cmd: string): string {
  const e = err as { code?: string; stderr?: string; message?: string }
  if (e.code === 'ENOENT') return `${cmd} is not installed on this machine`
  const text = (e.stderr || e.message || String(err)).trim().split('\n')[0] ?? ''
  if (/permission denied|must be root/i.test(text)) return `${cmd} needs root (or CAP_NET_ADMIN): ${text}`
  return `${cmd} refused the rules: ${text}`
}

async function exists(ipt: Runner, cmd: string, args: string[]): Promise<boolean> {
  try {
    await ipt(cmd, ['-C', ...args])
    return true
  } catch {
    return false
  }
}

async function ensureChain(ipt: Runner, cmd: string, chain: string) {
  try {
    await ipt(cmd, ['-N', chain])
  } catch (err) {
    // Made by an earlier start, or another server at the same moment.
    if (!/exists/i.test((err as { stderr?: string }).stderr ?? '')) throw err
  }
}

/** Adds `rule` to `chain` unless it is there; `first` puts it at the top. */
async function ensureRule(ipt: Runner, cmd: string, chain: string, rule: Rule, first = false) {
  if (await exists(ipt, cmd, [chain, ...rule])) return
  await ipt(cmd, first ? ['-I', chain, '1', ...rule] : ['-A', chain, ...rule])
}

/**
 * Installs (or re-installs: it is idempotent) the rules of these bridges. Touches only our own
 * chains and the two jumps into them. Resolves to null, or to why isolation is not in place.
 */
export async function installRules(
  bridges: Bridge[],
  allow: string[],
  ipt: Runner = iptables,
): Promise<string | null> {
  for (const family of ['v4', 'v6'] as const) {
    const mine = bridges.filter((b) => family === 'v4' || b.ipv6)
    if (mine.length === 0) continue
    const cmd = family === 'v4' ? 'iptables' : 'ip6tables'
    try {
      await ensureChain(ipt, cmd, INPUT_CHAIN)
      await ensureChain(ipt, cmd, FORWARD_CHAIN)
      await ensureRule(ipt, cmd, 'INPUT', ['-j', INPUT_CHAIN], true)
      // DOCKER-USER comes before Docker's own accepts, and Docker keeps it first in FORWARD.
      const hook = (await ipt(cmd, ['-S', 'DOCKER-USER']).then(
        () => true,
        () => false,
      ))
        ? 'DOCKER-USER'
        : 'FORWARD'
      await ensureRule(ipt, cmd, hook, ['-j', FORWARD_CHAIN], true)
      for (const bridge of mine) {
        const r = rulesFor(bridge, family, allow)
        await ensureChain(ipt, cmd, r.own)
        await ipt(cmd, ['-F', r.own])
        for (const rule of r.body) await ipt(cmd, ['-A', r.own, ...rule])
        await ensureRule(ipt, cmd, INPUT_CHAIN, r.input)
        await ensureRule(ipt, cmd, FORWARD_CHAIN, r.forward)
      }
    } catch (err) {
      return why(err, cmd)
    }
  }
  return null
}

/** Removes the rules of these bridges (the shared chains and jumps stay: others may use them). */
export async function removeRules(bridges: Bridge[], ipt: Runner = iptables): Promise<void> {
  for (const family of ['v4', 'v6'] as const) {
    const cmd = family === 'v4' ? 'iptables' : 'ip6tables'
    for (const bridge of bridges.filter((b) => family === 'v4' || b.ipv6)) {
      const r = rulesFor(bridge, family, [])
      await ipt(cmd, ['-D', INPUT_CHAIN, ...r.input]).catch(() => {})
      await ipt(cmd, ['-D', FORWARD_CHAIN, ...r.forward]).catch(() => {})
      await ipt(cmd, ['-F', r.own]).catch(() => {})
      await ipt(cmd, ['-X', r.own]).catch(() => {})
    }
  }
}

/** Rules as shell commands, for the log and for operators of nodes the server cannot reach. */
export function rulesAsCommands(bridges: Bridge[], allow: string[]): string[] {
  const lines: string[] = []
  for (const family of ['v4', 'v6'] as const) {
    const cmd = family === 'v4' ? 'iptables' : 'ip6tables'
    const mine = bridges.filter((b) => family === 'v4' || b.ipv6)
    if (mine.length === 0) continue
    lines.push(`${cmd} -N ${INPUT_CHAIN}`, `${cmd} -N ${FORWARD_CHAIN}`)
    lines.push(`${cmd} -I INPUT 1 -j ${INPUT_CHAIN}`, `${cmd} -I DOCKER-USER 1 -j ${FORWARD_CHAIN}`)
    for (const b of mine) {
      const r = rulesFor(b, family, allow)
      lines.push(`${cmd} -N ${r.own}`)
      for (const rule of r.body) lines.push(`${cmd} -A ${r.own} ${rule.join(' ')}`)
      lines.push(
        `${cmd} -A ${INPUT_CHAIN} ${r.input.join(' ')}`,
        `${cmd} -A ${FORWARD_CHAIN} ${r.forward.join(' ')}`,
      )
    }
  }
  return lines
}

/** The probe image: Debian's static busybox on an empty image, else the public busybox image. */
export const PROBE_IMAGE = 'pennant-probe:1'

/** A busybox that runs on an empty image: no program interpreter (`ld-…so`) named near its start. */
function isStaticBusybox(file: string): boolean {
  try {
    return !/\/ld-[\w.-]*\.so/.test(readFileSync(file).subarray(0, 4096).toString('latin1'))
  } catch {
    return false
  }
}

async function ensureProbeImage(docker: Docker): Promise<string> {
  try {
    await docker.getImage(PROBE_IMAGE).inspect()
    return PROBE_IMAGE
  } catch (err) {
    if (statusOf(err) !== 404) throw err
  }
  if (isStaticBusybox('/bin/busybox')) {
    const dir = await mkdtemp(path.join(tmpdir(), 'pennant-probe-'))
    try {
      await writeFile(path.join(dir, 'Dockerfile'), 'FROM scratch\nCOPY busybox /bin/busybox\n')
      await copyFile('/bin/busybox', path.join(dir, 'busybox'))
      const stream = await docker.buildImage(
        { context: dir, src: ['Dockerfile', 'busybox'] },
        { t: PROBE_IMAGE },
      )
      await new Promise<void>((resolve, reject) =>
        docker.modem.followProgress(
          stream,
          (err: Error | null) => (err ? reject(err) : resolve()),
          (e: { error?: string }) => {
            if (e.error) reject(new Error(e.error))
          },
        ),
      )
      return PROBE_IMAGE
    } catch {
      // A dynamic busybox, or no build: try the public image.
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
  await pullImage(docker, 'busybox:musl')
  return 'busybox:musl'
}

/**
 * Runs a probe container on `network` that connects to its gateway on `ports`; resolves to the
 * output lines (`open <port>` for each port that accepted, `http <port>` when one answered HTTP).
 */
async function probeFrom(docker: Docker, image: string, network: string, gateway: string, ports: number[]) {
  // The first line proves the probe ran: an image that cannot run prints nothing, which must not
  // read as "nothing reached the host".
  const script = [
    'echo probe-ran',
    ...ports.map(
      (p) =>
        `o=$(printf 'GET /api/config HTTP/1.0\\r\\n\\r\\n' | /bin/busybox timeout 4 /bin/busybox nc -w 2 ${gateway} ${p}) && echo open ${p}; case "$o" in *HTTP/*) echo http ${p};; esac`,
    ),
  ].join('; ')
  const container = await docker.createContainer({
    Image: image,
    Cmd: ['/bin/busybox', 'sh', '-c', script],
    Labels: { 'pennant.platform': 'probe' },
    HostConfig: {
      NetworkMode: network,
      Memory: 32 * 1024 * 1024,
      LogConfig: { Type: 'json-file', Config: {} },
    },
  })
  try {
    await container.start()
    await container.wait()
    const logs = await container.logs({ stdout: true, stderr: false })
    // The multiplexed log stream: 8-byte frame headers around the text.
    return demux(logs as unknown as Buffer)
  } finally {
    await container.remove({ force: true }).catch(() => {})
  }
}

function demux(buf: Buffer): string {
  let out = ''
  for (let i = 0; i + 8 <= buf.length; ) {
    const size = buf.readUInt32BE(i + 4)
    out += buf.subarray(i + 8, i + 8 + size).toString('utf8')
    i += 8 + size
  }
  return out
}

/**
 * From a container on each network, connects to the network's gateway on the server's port and
 * on a listener opened for the probe on all interfaces. Resolves to what reached the host.
 */
export async function probeIsolation(
  docker: Docker,
  networks: string[],
  serverPort: number | null,
): Promise<{ reached: string[] }> {
  const image = await ensureProbeImage(docker)
  // Probes of a server killed mid-check stay behind, stopped: clear them first.
  const stale = await docker.listContainers({
    all: true,
    filters: { label: ['pennant.platform=probe'], status: ['exited', 'created', 'dead'] },
  })
  await Promise.all(
    stale.map((c) =>
      docker
        .getContainer(c.Id)
        .remove({ force: true })
        .catch(() => {}),
    ),
  )
  const accepted = new Set<string>()
  const listener = createServer((socket) => {
    accepted.add(socket.remoteAddress ?? '?')
    socket.destroy()
  })
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject)
    listener.listen(0, '0.0.0.0', resolve)
  })
  const probePort = (listener.address() as { port: number }).port
  const reached: string[] = []
  try {
    await Promise.all(
      networks.map(async (name) => {
        const net = await docker.getNetwork(name).inspect()
        const gateway = (net.IPAM?.Config ?? []).map((c: { Gateway?: string }) => c.Gateway).find(Boolean)
        if (!gateway) throw new Error(`the network ${name} has no gateway address`)
        const ports = [probePort, ...(serverPort ? [serverPort] : [])]
        const out = await probeFrom(docker, image, name, gateway, ports)
        if (!out.includes('probe-ran'))
          throw new Error(`the probe container (${image}) did not run on ${name}`)
        if (/^(open|http) /m.test(out))
          reached.push(`${name} → ${gateway} (${out.trim().split('\n').join(', ')})`)
      }),
    )
  } finally {
    listener.close()
  }
  if (accepted.size > 0 && reached.length === 0)
    reached.push(`the probe listener accepted ${[...accepted].join(', ')}`)
  return { reached }
}

/** The doc operators follow when the server cannot install or verify the rules itself. */
const DOC = 'docs/operators/container-isolation.md'

export interface Isolation {
  /** Installs the rules (once; later calls wait for the first). Container starts wait for it. */
  ensure(): Promise<void>
  /** Checks with a probe container that the host does not answer; logs a warning when it does. */
  verify(serverPort: number | null): Promise<IsolationStatus>
  status(): IsolationStatus
  /** Removes the rules of this server's bridges (tests; an operator retiring a network). */
  remove(): Promise<void>
}

/**
 * Isolation of one backend's challenge networks. `bridges` makes the networks when missing and
 * says which interfaces they have; `swarm` means other nodes carry the same bridges, which this
 * server cannot reach.
 */
export function createIsolation(deps: {
  docker: Docker
  bridges: () => Promise<Bridge[]>
  /** The bridges by the names we give them, for removing rules without making the networks. */
  named: Bridge[]
  /** Ranges the egress network may still reach (`CONTAINER_EGRESS_ALLOW`). */
  allow: string[]
  swarm: boolean
  warn: (message: string) => void
  info?: (message: string) => void
  ipt?: Runner
}): Isolation {
  let current: IsolationStatus = { state: 'checking', message: null, probeMs: null }
  let problem: string | null = null
  let installing: Promise<void> | null = null
  let known: Bridge[] = []

  async function install() {
    known = await deps.bridges()
    const missing = deps.swarm ? [] : known.filter((b) => !existsSync(`/sys/class/net/${b.iface}`))
    if (missing.length > 0) {
      problem = `the bridge ${missing[0]!.iface} is not visible to this server (a remote DOCKER_HOST, or the server runs in a container without host networking): install the rules on the engine's host (${DOC})`
    } else {
      problem = await installRules(known, deps.allow, deps.ipt)
      if (!problem && deps.swarm)
        problem = `rules are installed on this node only: install them on every swarm node that runs challenges (${DOC})`
    }
    if (problem) {
      deps.warn(`challenge containers may reach the host and private networks: ${problem}`)
      deps.info?.(`the isolation rules, for ${DOC}:\n${rulesAsCommands(known, deps.allow).join('\n')}`)
      current = { state: 'unverified', message: problem, probeMs: null }
    }
  }

  return {
    ensure() {
      installing ??= install().catch((err: unknown) => {
        installing = null
        problem = `the challenge networks could not be read: ${faultMessage(err)}`
        deps.warn(`challenge containers may reach the host and private networks: ${problem}`)
        current = { state: 'unverified', message: problem, probeMs: null }
      })
      return installing
    },

    async verify(serverPort) {
      await this.ensure()
      if (problem) return current
      const started = Date.now()
      try {
        const { reached } = await probeIsolation(
          deps.docker,
          known.map((b) => b.network),
          serverPort,
        )
        const probeMs = Date.now() - started
        if (reached.length > 0) {
          const message = `a probe container reached the host: ${reached.join('; ')}`
          deps.warn(`challenge containers are not isolated: ${message} (${DOC})`)
          current = { state: 'exposed', message, probeMs }
        } else {
          deps.info?.(`challenge networks are isolated from the host (probe took ${probeMs} ms)`)
          current = { state: 'isolated', message: null, probeMs }
        }
      } catch (err) {
        const message = `the isolation probe could not run: ${faultMessage(err)}`
        deps.warn(`cannot verify that challenge containers are isolated: ${message}`)
        current = { state: 'unverified', message, probeMs: Date.now() - started }
      }
      return current
    },

    status: () => current,

    async remove() {
      await installing
      const all = [...known, ...deps.named.filter((b) => !known.some((k) => k.iface === b.iface))]
      await removeRules(all, deps.ipt)
    },
  }
}
