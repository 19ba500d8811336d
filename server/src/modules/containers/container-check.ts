import { createHash, randomInt, randomUUID } from 'node:crypto'
import net from 'node:net'
// Not the engine module's sleep: importing it loads the Docker client at every start.
import { setTimeout as sleep } from 'node:timers/promises'
import { eq } from 'drizzle-orm'
import type { ContainerConfig } from '../../config/index.ts'
import type { Db } from '../../db/index.ts'
import { containers } from '../../db/schema.ts'
import { testFlag } from '../../engine/team-hash.ts'
import { ChallengeTypeValues, isContainerType } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import { ContainerError, type ContainerState } from '../../infra/containers/index.ts'
import { requireChallenge } from '../contest/games.queries.ts'
import type { AuditService } from '../logs/audit.service.ts'
import { type ContainerRuntime, containerFailure, type Launch } from './container-runtime.ts'
import { environment, launchOf } from './containers.service.ts'

export type CheckStep = 'image' | 'start' | 'listen' | 'uptime' | 'memory' | 'flag'
export type CheckStatus = 'passed' | 'failed' | 'skipped'

/** One line of the checklist; `detail` is what was seen, in the engine's own words on a failure. */
export interface CheckItem {
  step: CheckStep
  status: CheckStatus
  detail: string
}

export interface CheckResult {
  passed: boolean
  image: string
  port: number
  steps: CheckItem[]
  checkedAt: number
  durationMs: number
}

/** What a connection to the challenge's port brought back, at most this much of it. */
const READ_LIMIT = 64 * 1024
/** Quiet this long after connecting: the service waits for the client to speak (HTTP): ask it. */
const QUIET_MS = 1000
/** How long one connection may take in all. */
const PROBE_MS = 4000
/** How long a container must keep running after it answered, however soon its uptime is up. */
const AFTER_ANSWER_MS = 1000
/** Between two attempts to connect, and two looks at whether the container still runs. */
const RETRY_MS = 250

/**
 * The row id of a challenge's check, the same on every server: the `containers` primary key
 * then lets one check of a challenge run at a time across replicas, and the reaper removes what
 * a check left when its server died.
 */
function checkRowId(challengeId: number): string {
  const h = createHash('sha256').update(`pennant-check:${challengeId}`).digest('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`
}

type Probe = { ok: true; received: Buffer } | { ok: false; error: string; refused: boolean }

/**
 * Opens one TCP connection and reads what the service says; a service that says nothing within
 * {@link QUIET_MS} is sent an HTTP GET, as web challenges only answer a request.
 */
function probe(host: string, port: number): Promise<Probe> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    let connected = false
    let settled = false
    const socket = net.connect({ host, port })
    const finish = (outcome: Probe) => {
      if (settled) return
      settled = true
      clearTimeout(quiet)
      clearTimeout(limit)
      socket.destroy()
      resolve(outcome)
    }
    const done = () => finish({ ok: true, received: Buffer.concat(chunks) })
    let quiet: NodeJS.Timeout | undefined
    const limit = setTimeout(
      () =>
        connected
          ? done()
          : finish({ ok: false, error: `no answer within ${PROBE_MS / 1000} s`, refused: false }),
      PROBE_MS,
    )
    socket.on('connect', () => {
      connected = true
      quiet = setTimeout(() => {
        if (size === 0) socket.write(`GET / HTTP/1.0\r\nHost: ${host}:${port}\r\nConnection: close\r\n\r\n`)
      }, QUIET_MS)
    })
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
      size += chunk.length
      if (size >= READ_LIMIT) done()
    })
    socket.on('end', done)
    socket.on('error', (err: NodeJS.ErrnoException) => {
      if (connected) done()
      else finish({ ok: false, error: err.message, refused: err.code === 'ECONNREFUSED' })
    })
  })
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`

/** Why a container stopped, as the engine tells it. */
function stopped(state: ContainerState | null): string {
  if (!state) return 'the container is gone'
  const parts = [`exited with code ${state.exitCode ?? '?'}`]
  if (state.oomKilled) parts.push('killed for memory (OOMKilled)')
  if (state.error) parts.push(state.error)
  return parts.join(', ')
}

/**
 * The organisers' check of a container challenge, before players meet it: runs the challenge's
 * image as the engine would for a team (same limits and flag variables, never published), and
 * reports a checklist: the image exists, the container starts, something answers on the
 * declared port in time, it still runs after `uptimeMs`, it was not killed for memory, and for
 * dynamic flags whether the flag handed to it shows in what it serves. Its container is always
 * removed.
 */
export function createContainerCheck(deps: {
  db: Db
  runtime: ContainerRuntime
  config: ContainerConfig['check']
  audit: AuditService
}) {
  const { db, runtime } = deps

  async function run(actor: SessionUser, gameId: number, challengeId: number): Promise<CheckResult> {
    const c = await requireChallenge(db, gameId, challengeId)
    if (!isContainerType(c.type)) throw fail('Game_ContainerCreationNotAllowed')
    const dynamic = c.type === ChallengeTypeValues.DynamicContainer
    const flag = dynamic ? testFlag(c.flagTemplate, { random: randomInt, guid: randomUUID }) : null
    const { listenMs, uptimeMs } = deps.config
    // Long enough for the whole check; a check whose server died is reaped soon after.
    const spec = launchOf(c, environment(flag, 'admin'), listenMs + uptimeMs + 120_000)
    if (!spec) throw fail('Container_ConfigError')
    if (!runtime.enabled) throw fail('Container_NotConfigured')
    const launch: Launch = {
      ...spec,
      gameId,
      challengeId: c.id,
      participationId: null,
      teamId: null,
      userId: actor.id,
      isTest: true,
      publish: false,
    }
    const [row] = await db
      .insert(containers)
      .values({ ...runtime.newRow(launch), id: checkRowId(c.id) })
      .onConflictDoNothing()
      .returning()
    if (!row) throw fail('Container_CheckRunning')

    const began = Date.now()
    const steps = new Map<CheckStep, CheckItem>()
    const order: CheckStep[] = [
      'image',
      'start',
      'listen',
      'uptime',
      'memory',
      ...(dynamic ? ['flag' as const] : []),
    ]
    for (const step of order) steps.set(step, { step, status: 'skipped', detail: '' })
    const mark = (step: CheckStep, status: CheckStatus, detail = '') =>
      steps.set(step, { step, status, detail })

    let containerId = ''
    try {
      try {
        containerId = (await runtime.start(row.id, launch)).containerId
        mark('image', 'passed', spec.image)
        mark('start', 'passed')
      } catch (err) {
        if (!(err instanceof ContainerError)) throw err
        if (err.failure === 'ImageNotFound' || err.failure === 'Unreachable')
          mark('image', 'failed', err.detail)
        else {
          mark('image', 'passed', spec.image)
          mark('start', 'failed', err.detail)
          if (/OOMKilled/.test(err.detail)) mark('memory', 'failed', err.detail)
        }
      }
      // The engine failing mid-check (gone, unreachable) is an error of the check, not a finding.
      if (containerId)
        await watch(containerId, spec.port, flag, began, mark, { listenMs, uptimeMs }).catch(
          (err: unknown) => {
            throw containerFailure(err, spec.image, true)
          },
        )
    } finally {
      // The start removes its row on failure; otherwise the check's container goes now.
      const [left] = await db.select().from(containers).where(eq(containers.id, row.id))
      if (left) await runtime.remove(left).catch(() => {})
    }

    const list = order.map((s) => steps.get(s)!)
    const passed = !list.some((s) => s.status === 'failed')
    deps.audit.write({
      logger: 'containers',
      message: `${actor.userName} checked the container of "${c.title}" (${spec.image}): ${passed ? 'passed' : `failed at ${list.find((s) => s.status === 'failed')!.step}`}`,
      status: passed ? 'Success' : 'Failed',
      userName: actor.userName,
    })
    return {
      passed,
      image: spec.image,
      port: spec.port,
      steps: list,
      checkedAt: began,
      durationMs: Date.now() - began,
    }
  }

  /** From a running container on: its port, its staying up, its memory, the flag it serves. */
  async function watch(
    containerId: string,
    port: number,
    flag: string | null,
    began: number,
    mark: (step: CheckStep, status: CheckStatus, detail?: string) => void,
    limits: { listenMs: number; uptimeMs: number },
  ) {
    const backend = runtime.backend!
    let state = await backend.inspect(containerId)
    let answer: Buffer | null = null
    let answeredAt = 0
    // 1. Something answers on the port: retried while refused, until the time limit.
    let last = ''
    const target = await backend.target(containerId, port)
    while (target && state?.running) {
      const seen = await probe(target.host, target.port)
      if (seen.ok) {
        answer = seen.received
        answeredAt = Date.now()
        mark('listen', 'passed', `answered after ${seconds(Date.now() - began)} (${answer.length} bytes)`)
        break
      }
      last = seen.error
      if (Date.now() - began > limits.listenMs) break
      if (seen.refused) await sleep(RETRY_MS)
      state = await backend.inspect(containerId)
    }
    if (!answer)
      mark(
        'listen',
        'failed',
        state?.running && target
          ? `nothing answered on port ${port} within ${seconds(limits.listenMs)}${last ? ` (${last})` : ''}`
          : `the container stopped before anything answered on port ${port} (${stopped(state)})`,
      )
    // 2. It keeps running: looked at until the time is up or it stops, and for a moment after
    // it answered at least (a service that serves one connection and exits is a common mistake).
    const until = Math.max(began + limits.uptimeMs, answeredAt + AFTER_ANSWER_MS)
    while (state?.running && Date.now() < until) {
      await sleep(Math.max(0, Math.min(RETRY_MS * 2, until - Date.now())))
      state = await backend.inspect(containerId)
    }
    // A fresh look: the port's wait may have used up the time since the last one.
    if (state?.running) state = await backend.inspect(containerId)
    if (state?.running) mark('uptime', 'passed', `running after ${seconds(Date.now() - began)}`)
    else mark('uptime', 'failed', `${stopped(state)} after ${seconds(Date.now() - began)}`)
    // 3. Memory: what the engine recorded (a backend that cannot tell says so).
    if (state?.oomKilled) mark('memory', 'failed', stopped(state))
    else if (state && state.oomKilled === null) mark('memory', 'skipped', 'the engine does not report it')
    else if (state) mark('memory', 'passed')
    // 4. The flag handed to it, in what it sent (plain text, or the answer to GET /).
    if (flag !== null) {
      if (answer?.toString('utf8').includes(flag)) mark('flag', 'passed', flag)
      else mark('flag', 'skipped', flag)
    }
  }

  return { run }
}

export type ContainerCheck = ReturnType<typeof createContainerCheck>
