import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { Readable } from 'node:stream'
import Docker from 'dockerode'
import { ContainerError } from './index.ts'

/**
 * The Docker Engine API plumbing both backends share: the connection, error translation, the
 * challenge networks and what an image exposes.
 */

/**
 * A stable bridge interface name for a network (at most 15 characters): `pne-…` with egress,
 * `pnn-…` without, then a hash of the network name. Rules keyed on it survive the network being
 * re-created.
 */
export function bridgeName(network: string, egress: boolean): string {
  return `pn${egress ? 'e' : 'n'}-${createHash('sha256').update(network).digest('hex').slice(0, 10)}`
}

/** Connects to `DOCKER_HOST` (`unix:///path` or `tcp://host:port`), else the local socket. */
export function connectEngine(opts: { host?: string; certPath?: string }): Docker {
  if (!opts.host) return new Docker({ socketPath: '/var/run/docker.sock' })
  const url = new URL(opts.host)
  if (url.protocol === 'unix:') return new Docker({ socketPath: url.pathname })
  if (url.protocol !== 'tcp:' && url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`DOCKER_HOST must be unix:// or tcp://, got "${opts.host}"`)
  const tls = opts.certPath
    ? {
        ca: readFileSync(path.join(opts.certPath, 'ca.pem')),
        cert: readFileSync(path.join(opts.certPath, 'cert.pem')),
        key: readFileSync(path.join(opts.certPath, 'key.pem')),
      }
    : {}
  return new Docker({
    host: url.hostname,
    port: Number(url.port || (opts.certPath ? 2376 : 2375)),
    protocol: opts.certPath || url.protocol === 'https:' ? 'https' : 'http',
    ...tls,
  })
}

interface EngineFault {
  statusCode?: number
  code?: string
  json?: { message?: string } | null
  message?: string
  reason?: string
}

/** The engine's message of a failed call. */
export function faultMessage(err: unknown): string {
  const e = err as EngineFault
  return (e?.json?.message ?? e?.message ?? String(err)).trim()
}

export const statusOf = (err: unknown) => (err as EngineFault)?.statusCode

/** Socket-level failures: the engine is not there. */
export function isUnreachable(err: unknown): boolean {
  const code = (err as EngineFault)?.code
  return [
    'ECONNREFUSED',
    'ENOENT',
    'EACCES',
    'ETIMEDOUT',
    'ECONNRESET',
    'EHOSTUNREACH',
    'ENOTFOUND',
  ].includes(code ?? '')
}

/**
 * Turns an engine failure into a {@link ContainerError}; `during` says what was being done. A
 * refused request (400) means invalid limits only when creating: a start refused by the runtime
 * (a missing command, say) is a failed start.
 */
export function toContainerError(
  err: unknown,
  during: string,
  opts: { creating?: boolean } = {},
): ContainerError {
  if (err instanceof ContainerError) return err
  if (isUnreachable(err)) return new ContainerError('Unreachable', `${during}: ${faultMessage(err)}`)
  if (opts.creating && statusOf(err) === 400) return new ContainerError('InvalidLimits', faultMessage(err))
  return new ContainerError('StartFailed', `${during}: ${faultMessage(err)}`)
}

/** Pulls an image, following the progress stream to its end (errors arrive inside it). */
export async function pullImage(docker: Docker, image: string): Promise<void> {
  const stream = await docker.pull(image)
  await new Promise<void>((resolve, reject) => {
    docker.modem.followProgress(
      stream,
      (err: Error | null) => (err ? reject(err) : resolve()),
      (event: { error?: string }) => {
        if (event.error) reject(new Error(event.error))
      },
    )
  })
}

/** What a build left: the image's id and the build output's last lines (the engine's words). */
export interface BuiltImage {
  id: string
  log: string[]
}

/**
 * Builds `tag` on the engine from a build context (a tar archive with a `Dockerfile` at its top),
 * following the output to its end. A failed step rejects with {@link ContainerError}
 * (`StartFailed`, the engine's message and the lines before it), an absent engine with
 * `Unreachable`.
 */
export async function buildImage(
  docker: Docker,
  context: Buffer,
  tag: string,
  keepLines = 40,
): Promise<BuiltImage> {
  const lines: string[] = []
  const keep = (text: string) => {
    for (const line of text.split('\n')) {
      if (!line.trim()) continue
      lines.push(line.trimEnd())
      if (lines.length > keepLines) lines.shift()
    }
  }
  let id = ''
  try {
    const stream = await docker.buildImage(Readable.from([context]), { t: tag, rm: true, forcerm: true })
    await new Promise<void>((resolve, reject) => {
      docker.modem.followProgress(
        stream,
        (err: Error | null) => (err ? reject(err) : resolve()),
        (event: { stream?: string; error?: string; aux?: { ID?: string } }) => {
          if (event.stream) keep(event.stream)
          if (event.aux?.ID) id = event.aux.ID
          if (event.error) {
            keep(event.error)
            reject(new Error(event.error))
          }
        },
      )
    })
  } catch (err) {
    if (isUnreachable(err)) throw toContainerError(err, 'building the image')
    throw new ContainerError(
      'StartFailed',
      [...lines, faultMessage(err)].filter((l, i, a) => a.indexOf(l) === i).join('\n'),
    )
  }
  if (!id) id = String((await docker.getImage(tag).inspect()).Id ?? '')
  return { id, log: lines }
}

/**
 * The ports an image declares (`EXPOSE`), pulling it when it is not on the engine yet. Read once
 * a minute per image: starts of the same challenge come in bursts.
 */
export function createImagePorts(docker: Docker) {
  const known = new Map<string, { ports: Set<string>; at: number }>()
  const pulling = new Map<string, Promise<void>>()

  async function inspect(image: string) {
    return (await docker.getImage(image).inspect()).Config?.ExposedPorts ?? {}
  }

  return async function exposedPorts(image: string): Promise<Set<string>> {
    const hit = known.get(image)
    if (hit && Date.now() - hit.at < 60_000) return hit.ports
    let exposed: Record<string, unknown>
    try {
      exposed = await inspect(image)
    } catch (err) {
      if (statusOf(err) !== 404) throw toContainerError(err, 'reading the image')
      // Not here yet: pull it once, however many starts are waiting for it.
      let pull = pulling.get(image)
      if (!pull) {
        pull = pullImage(docker, image).finally(() => pulling.delete(image))
        pulling.set(image, pull)
      }
      try {
        await pull
        exposed = await inspect(image)
      } catch (pullErr) {
        if (isUnreachable(pullErr)) throw toContainerError(pullErr, 'pulling the image')
        throw new ContainerError('ImageNotFound', `${image}: ${faultMessage(pullErr)}`)
      }
    }
    const ports = new Set(Object.keys(exposed))
    known.set(image, { ports, at: Date.now() })
    return ports
  }
}

/**
 * The protocols to publish for a challenge port: TCP, plus UDP when the image exposes the port
 * on UDP too (UDP alone when that is all it exposes).
 */
export function protocolsFor(exposed: Set<string>, port: number): ('tcp' | 'udp')[] {
  const udp = exposed.has(`${port}/udp`)
  const tcp = exposed.has(`${port}/tcp`) || exposed.has(String(port))
  if (udp && !tcp) return ['udp']
  return udp ? ['tcp', 'udp'] : ['tcp']
}

/**
 * Bridge options of the challenge networks: no traffic between containers (teams), and a bridge
 * interface named after the network, which the isolation rules match on.
 */
export function networkOptions(name: string, egress: boolean): Record<string, string> {
  return {
    'com.docker.network.bridge.name': bridgeName(name, egress),
    'com.docker.network.bridge.enable_icc': 'false',
    // Without masquerading, packets to the internet leave with a private source and get no answer.
    'com.docker.network.bridge.enable_ip_masquerade': egress ? 'true' : 'false',
  }
}

/** The two challenge networks of a base name: with and without a way out. */
export const networkName = (base: string, egress: boolean) => (egress ? base : `${base}-noegress`)

/** Creating the same network from two places at once: the loser finds the winner's. */
export async function createIfMissing(create: () => Promise<unknown>): Promise<void> {
  try {
    await create()
  } catch (err) {
    if (statusOf(err) !== 409 && !/already exists/i.test(faultMessage(err)))
      throw toContainerError(err, 'creating the challenge network')
  }
}

/** Runs `work` once per key, and again after a failure (networks are made once per process). */
export function oncePerKey<K>(work: (key: K) => Promise<void>): (key: K) => Promise<void> {
  const done = new Map<K, Promise<void>>()
  return (key) => {
    let pending = done.get(key)
    if (!pending) {
      pending = work(key).catch((err: unknown) => {
        done.delete(key)
        throw err
      })
      done.set(key, pending)
    }
    return pending
  }
}

/** Longest line kept of a container's output: a binary blob must not fill the admin's screen. */
const LINE_CHARS = 2000

/**
 * A container's output as the engine sends it, as text lines (at most `lines`, the last ones).
 * Without a terminal the engine frames each chunk with 8 bytes (stream, 0, 0, 0, length), so a
 * buffer is read frame by frame; one that does not start like a frame is plain text (a TTY).
 */
export function outputLines(raw: Buffer | string, lines: number): string[] {
  let text: string
  if (typeof raw === 'string') text = raw
  else {
    const parts: Buffer[] = []
    let at = 0
    const framed = (i: number) =>
      i + 8 <= raw.length && raw[i]! <= 2 && raw[i + 1] === 0 && raw[i + 2] === 0 && raw[i + 3] === 0
    if (raw.length && !framed(0)) parts.push(raw)
    else
      while (framed(at)) {
        const size = raw.readUInt32BE(at + 4)
        parts.push(raw.subarray(at + 8, at + 8 + size))
        at += 8 + size
      }
    text = Buffer.concat(parts).toString('utf8')
  }
  // Terminal colour codes and other control characters mean nothing on a web page.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
  const clean = text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '')
  const all = clean.split('\n')
  if (all.at(-1) === '') all.pop()
  return all.slice(-lines).map((l) => (l.length > LINE_CHARS ? `${l.slice(0, LINE_CHARS)}…` : l))
}

/** Waits `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
