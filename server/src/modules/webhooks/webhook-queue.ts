import { eq, type SQL, sql } from 'drizzle-orm'
import type { FastifyBaseLogger } from 'fastify'
import type { Db, DbOrTx } from '../../db/index.ts'
import { webhookDeliveries } from '../../db/schema.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { ContainerFailureReport } from '../containers/container-runtime.ts'
import type { SettingsService } from '../settings/settings.service.ts'
import {
  type EventDocument,
  renderBody,
  signatureHeaders,
  type WebhookEvent,
  type WebhookFormat,
} from './webhook-formats.ts'
import { type AllowedHosts, postJson } from './webhook-http.ts'
import { presentDelivery } from './webhooks.service.ts'

export interface WebhookTimings {
  /** How often the worker looks for due deliveries (it is also woken by every enqueue). */
  pollMs: number
  /** The first retry's delay; each further one is 4 times longer, up to `maxBackoffMs`. */
  retryBaseMs: number
  maxBackoffMs: number
  /** Attempts before a delivery is given up (`failed`). */
  maxAttempts: number
  /** How long one attempt may wait for an answer. */
  timeoutMs: number
  /** How often game start and end times are checked. */
  gameCheckMs: number
}

export const defaultTimings: WebhookTimings = {
  pollMs: 2000,
  retryBaseMs: 30_000,
  maxBackoffMs: 3600_000,
  maxAttempts: 5,
  timeoutMs: 10_000,
  gameCheckMs: 15_000,
}

/** Serialises enqueues that deduplicate, across servers sharing the database. */
const ENQUEUE_LOCK = 0x5045_4e57 // "PENW"
/** Game start and end are announced when they passed at most this long ago (a restart catches up). */
const GAME_LOOKBACK = '1 hour'
/** Finished deliveries are kept this long in the log, then forgotten (checked hourly). */
const LOG_KEPT = '30 days'
/** Attempts in flight at once per server: a hanging endpoint holds one slot, not the queue. */
const PARALLEL = 16

async function rows<T>(db: DbOrTx, statement: SQL): Promise<T[]> {
  return ((await db.execute(statement)) as unknown as { rows: T[] }).rows
}

interface Claimed {
  id: number
  event: WebhookEvent
  payload: EventDocument
  attempts: number
  url: string
  format: WebhookFormat
  secret: string
}

/**
 * The delivery queue: events become `webhook_deliveries` rows (one insert, nothing sent on the
 * caller's path), and one worker per server sends them. Servers claim due rows with
 * `FOR UPDATE SKIP LOCKED` in a short transaction that also pushes `next_attempt_at` past the
 * attempt's timeout (a lease), so no two servers send one delivery at once, and a server that
 * dies mid-send leaves a row another picks up when the lease ends (at-least-once: receivers
 * deduplicate on the delivery id). Results are written only while the claim still holds.
 */
export function createWebhookQueue(deps: {
  db: Db
  settings: SettingsService
  log: FastifyBaseLogger
  bus?: Bus
  timings?: Partial<WebhookTimings>
  /** `WEBHOOK_ALLOWED_HOSTS`: internal hosts an operator lets deliveries reach. */
  allowedHosts?: AllowedHosts
}) {
  const { db, settings } = deps
  const timings = { ...defaultTimings, ...deps.timings }
  const on = () => settings.isOn('webhooks')
  let timer: NodeJS.Timeout | null = null
  let running: Promise<void> | null = null
  let again = false
  let lastGameCheck = 0
  let lastTrim = 0
  let unsubscribe: (() => void) | undefined
  const sending = new Set<Promise<void>>()
  const inFlight = new AbortController()

  /**
   * Queues `event` for every enabled endpoint that wants it (and this game, if it filters).
   * With `doc.key`, an endpoint gets at most one delivery per key, even when several servers
   * report the same event. Returns how many deliveries were queued.
   */
  async function enqueue(event: WebhookEvent, gameId: number | null, doc: EventDocument): Promise<number> {
    if (!on()) return 0
    const insert = (tx: DbOrTx) =>
      rows<{ id: number }>(
        tx,
        sql`
        insert into webhook_deliveries (webhook_id, event, payload)
        select w.id, ${event}, ${JSON.stringify(doc)}::jsonb || jsonb_build_object('game',
                 (select jsonb_build_object('id', g.id, 'title', g.title) from games g where g.id = ${gameId}::int))
        from webhooks w
        where w.enabled and w.events @> jsonb_build_array(${event}::text)
          and (w.game_id is null or w.game_id = ${gameId}::int)
          ${
            doc.key
              ? sql`and not exists (select 1 from webhook_deliveries d
                     where d.webhook_id = w.id and d.event = ${event} and d.payload->>'key' = ${doc.key})`
              : sql``
          }
        returning id`,
      )
    const queued = doc.key
      ? await db.transaction(async (tx) => {
          await tx.execute(sql`select pg_advisory_xact_lock(${ENQUEUE_LOCK})`)
          return insert(tx)
        })
      : await insert(db)
    if (queued.length) kick()
    return queued.length
  }

  /** Fire and forget, for event sources that must not wait (the bus, the container runtime). */
  function emit(event: WebhookEvent, gameId: number | null, doc: EventDocument) {
    if (!on()) return
    enqueue(event, gameId, doc).catch((err: unknown) =>
      deps.log.warn({ err, event }, 'webhook event not queued'),
    )
  }

  /**
   * Game start and end: each announced once per endpoint (keyed by game and event), for times
   * that passed since the endpoint was made and at most {@link GAME_LOOKBACK} ago. Hidden games
   * are not announced.
   */
  async function checkGameTimes(): Promise<number> {
    if (!on()) return 0
    const queued = await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ENQUEUE_LOCK})`)
      return rows<{ id: number }>(
        tx,
        sql`
        insert into webhook_deliveries (webhook_id, event, payload)
        select w.id, e.event, jsonb_build_object(
                 'time', floor(extract(epoch from e.at) * 1000)::float8,
                 'game', jsonb_build_object('id', g.id, 'title', g.title),
                 'data', jsonb_build_object('start', floor(extract(epoch from g.start_time_utc) * 1000)::float8,
                                            'end', floor(extract(epoch from g.end_time_utc) * 1000)::float8),
                 'key', e.event || ':' || g.id)
        from webhooks w
        join games g on (w.game_id is null or w.game_id = g.id) and not g.hidden
        cross join lateral (values ('GameStarted', g.start_time_utc), ('GameEnded', g.end_time_utc)) e(event, at)
        where w.enabled and w.events @> jsonb_build_array(e.event)
          and e.at <= now() and e.at > greatest(w.created_at, now() - ${GAME_LOOKBACK}::interval)
          and not exists (select 1 from webhook_deliveries d
                          where d.webhook_id = w.id and d.event = e.event and d.payload->>'key' = e.event || ':' || g.id)
        returning id`,
      )
    })
    if (queued.length) kick()
    return queued.length
  }

  /** Forgets delivered and failed deliveries older than {@link LOG_KEPT}; returns how many. */
  async function trim(): Promise<number> {
    const gone = await rows<{ id: number }>(
      db,
      sql`delete from webhook_deliveries
          where status <> 'pending' and created_at < now() - ${LOG_KEPT}::interval returning id`,
    )
    return gone.length
  }

  /** Claims due deliveries (or this one), leasing each for one attempt. */
  async function claim(limit: number, only?: number): Promise<Claimed[]> {
    const leaseMs = timings.timeoutMs + 30_000
    return rows<Claimed>(
      db,
      sql`
      with due as (
        select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
        where d.status = 'pending'
          and ${only === undefined ? sql`d.next_attempt_at <= now() and w.enabled` : sql`d.id = ${only}`}
        order by d.next_attempt_at, d.id
        limit ${limit}
        for update of d skip locked
      )
      update webhook_deliveries d
      set attempts = d.attempts + 1, next_attempt_at = now() + ${`${leaseMs} milliseconds`}::interval
      from due, webhooks w
      where d.id = due.id and w.id = d.webhook_id
      returning d.id::float8 id, d.event, d.payload, d.attempts, w.url, w.format, w.secret`,
    )
  }

  /** The delay before the attempt after `attempts` failed ones. */
  const backoff = (attempts: number) =>
    Math.min(timings.retryBaseMs * 4 ** Math.max(0, attempts - 1), timings.maxBackoffMs)

  async function attempt(d: Claimed): Promise<void> {
    const body = JSON.stringify(renderBody(d.format, { id: d.id, event: d.event, doc: d.payload }))
    const headers = {
      ...signatureHeaders(d.secret, body, Math.floor(Date.now() / 1000)),
      'X-Pennant-Event': d.event,
      'X-Pennant-Delivery': String(d.id),
    }
    const answer = await postJson(d.url, body, headers, {
      timeoutMs: timings.timeoutMs,
      signal: inFlight.signal,
      allowed: deps.allowedHosts,
    })
    const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300
    const status = ok ? 'delivered' : d.attempts >= timings.maxAttempts ? 'failed' : 'pending'
    // Only while our claim holds (same attempt count): a lease that ran out belongs to another.
    await db.execute(sql`
      update webhook_deliveries set
        status = ${status},
        last_status_code = ${answer.statusCode},
        last_response = ${answer.text},
        delivered_at = ${ok ? sql`now()` : sql`null`},
        next_attempt_at = ${status === 'pending' ? sql`now() + ${`${backoff(d.attempts)} milliseconds`}::interval` : sql`next_attempt_at`}
      where id = ${d.id} and attempts = ${d.attempts} and status = 'pending'`)
  }

  /**
   * One pass: game times (now and then), then claims due deliveries into the free slots. Sends
   * are not awaited here: each frees its slot when done and asks for another pass.
   */
  async function pass(): Promise<void> {
    if (!on()) return
    if (Date.now() - lastGameCheck >= timings.gameCheckMs) {
      lastGameCheck = Date.now()
      await checkGameTimes()
    }
    if (Date.now() - lastTrim >= 3600_000) {
      lastTrim = Date.now()
      await trim()
    }
    while (!inFlight.signal.aborted) {
      const free = PARALLEL - sending.size
      if (free <= 0) break
      const claimed = await claim(free)
      for (const d of claimed) {
        const sent: Promise<void> = attempt(d)
          .catch((err: unknown) => deps.log.warn({ err, delivery: d.id }, 'webhook delivery failed'))
          .finally(() => {
            sending.delete(sent)
            kick()
          })
        sending.add(sent)
      }
      if (claimed.length < free) break
    }
  }

  /** Runs a pass now, or right after the one under way. */
  function kick() {
    if (inFlight.signal.aborted) return
    if (running) {
      again = true
      return
    }
    running = (async () => {
      do {
        again = false
        await pass().catch((err: unknown) => deps.log.warn({ err }, 'webhook delivery pass failed'))
      } while (again && !inFlight.signal.aborted)
      running = null
    })()
  }

  return {
    enqueue,
    emit,
    checkGameTimes,
    trim,
    kick,
    timings,

    /** A player's container failed: told once per container, with its challenge and team named. */
    containerFailed(f: ContainerFailureReport) {
      if (!on()) return
      ;(async () => {
        const [names] = await rows<{ challenge: string | null; team: string | null }>(
          db,
          sql`select (select title from challenges where id = ${f.challengeId}::int) challenge,
                     (select name from teams where id = ${f.teamId}::int) team`,
        )
        await enqueue('ContainerFailed', f.gameId, {
          time: Date.now(),
          game: null,
          data: {
            phase: f.phase,
            challengeId: f.challengeId,
            challenge: names?.challenge ?? null,
            teamId: f.teamId,
            team: names?.team ?? null,
            image: f.image,
            reason: f.reason,
          },
          key: `container:${f.rowId}`,
        })
      })().catch((err: unknown) => deps.log.warn({ err }, 'container failure not queued for webhooks'))
    },

    /** Sends one delivery now (the test button), and returns it as logged afterwards. */
    async sendNow(id: number) {
      const [claimed] = await claim(1, id)
      if (claimed) await attempt(claimed)
      const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id))
      return row ? presentDelivery(row) : null
    },

    /** Starts the worker and the event subscriptions. */
    start() {
      unsubscribe = deps.bus?.subscribe('game.notice', ({ gameId, notice }) => {
        const key = `notice:${notice.id}`
        if (notice.type === 'FirstBlood' || notice.type === 'SecondBlood' || notice.type === 'ThirdBlood')
          emit(notice.type, gameId, {
            time: notice.time,
            game: null,
            data: { team: notice.values[0], challenge: notice.values[1] },
            key,
          })
        else if (notice.type === 'Normal')
          emit('NewNotice', gameId, {
            time: notice.time,
            game: null,
            data: { content: notice.values[0] },
            key,
          })
      })
      timer = setInterval(kick, timings.pollMs)
      timer.unref()
    },

    /** Stops the worker; sends in flight are abandoned (their lease lets another server retry). */
    async stop() {
      if (timer) clearInterval(timer)
      unsubscribe?.()
      inFlight.abort()
      await running
      await Promise.all(sending)
    },
  }
}
export type WebhookQueue = ReturnType<typeof createWebhookQueue>
