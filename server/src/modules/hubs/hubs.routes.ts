import { randomBytes } from 'node:crypto'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Type } from 'typebox'
import type { SessionUser } from '../../http/types.ts'
import type { BusTopics } from '../../infra/bus/index.ts'
import type { ClockTimer } from '../../infra/clock/index.ts'
import { requireVisibleGame } from '../contest/context.ts'
import { createHub, type Hub, type HubTimings } from './hub.ts'
import { invocationFrame, isoTime } from './protocol.ts'

/** A game's players (user hub) or watchers (monitor hub); upstream calls it `Game_<id>`. */
const gameGroup = (gameId: number) => `Game_${gameId}`
const ADMINS = 'Admins'
/** "Board changed" pushes per game are at most this frequent; the last tag always goes out. */
const BOARD_PUSH_MS = 1000

const frame = (target: string, payload: unknown) => Buffer.from(invocationFrame(target, [payload]))

const NegotiateQuery = Type.Object({ negotiateVersion: Type.Optional(Type.Integer({ minimum: 0 })) })
const ConnectQuery = Type.Object({
  game: Type.Optional(Type.Integer()),
  id: Type.Optional(Type.String({ maxLength: 128 })),
})

export interface HubRouteOptions {
  /** Shorter keep-alive and timeouts for tests. */
  timings?: Partial<HubTimings>
}

/**
 * The three SignalR hubs (api-contract §4): `/hub/user?game=` (anyone; notices, and our "board
 * changed" push), `/hub/monitor?game=` (monitors, or an API token; game events and judged
 * submissions), `/hub/admin` (admins; the admin log). They listen to the bus; services know
 * nothing of them.
 */
const hubsPlugin: FastifyPluginAsyncTypebox<HubRouteOptions> = async (app, opts) => {
  const { infra, services, db, clock } = app.deps
  const { bus } = infra
  const hubs = {
    user: createHub('user', opts.timings),
    monitor: createHub('monitor', opts.timings),
    admin: createHub('admin', opts.timings),
  }
  app.decorate('hubs', hubs)

  /** The game of `?game=` when `actor` may see it (hidden games: admins only, decisions.md 9). */
  async function visibleGame(gameId: number | undefined, actor: SessionUser | null) {
    if (gameId === undefined) return null
    return requireVisibleGame(db, gameId, actor).catch(() => null)
  }

  /** The cookie's user, or for the monitor hub the user an `Authorization: Bearer` token stands for. */
  async function bearer(request: FastifyRequest): Promise<SessionUser | null> {
    const header = request.headers.authorization
    return header?.startsWith('Bearer ') ? services.apiTokens.resolve(header.slice(7).trim()) : null
  }

  const admissions: Record<
    keyof typeof hubs,
    (request: FastifyRequest, game?: number) => Promise<string[] | null>
  > = {
    async user(request, gameId) {
      const game = await visibleGame(gameId, request.user)
      return game ? [gameGroup(game.id)] : null
    },
    async monitor(request, gameId) {
      const actor = request.user && request.user.role >= 2 ? request.user : await bearer(request)
      if (!actor || actor.role < 2) return null
      const game = await visibleGame(gameId, actor)
      return game ? [gameGroup(game.id)] : null
    },
    async admin(request) {
      return request.user?.role === 3 ? [ADMINS] : null
    },
  }

  for (const name of Object.keys(hubs) as (keyof typeof hubs)[]) {
    const hub: Hub = hubs[name]
    // Negotiation hands out a connection id and offers WebSockets, the one transport served.
    // It changes nothing, so it needs no XSRF token (the official client sends none).
    app.post(
      `/hub/${name}/negotiate`,
      { config: { xsrfExempt: true }, schema: { hide: true, querystring: NegotiateQuery } },
      async (request) => {
        const connectionId = randomBytes(16).toString('base64url')
        const transports = [{ transport: 'WebSockets', transferFormats: ['Text'] }]
        if ((request.query.negotiateVersion ?? 0) < 1)
          return { connectionId, availableTransports: transports }
        return {
          negotiateVersion: 1,
          connectionId,
          connectionToken: randomBytes(16).toString('base64url'),
          availableTransports: transports,
        }
      },
    )
    // The connection token (`id`) is not remembered: access is decided per connection, from
    // its cookie or token, so a client may connect to any replica and reuse an id after a restart.
    app.get(`/hub/${name}`, { websocket: true, schema: { querystring: ConnectQuery } }, (socket, request) => {
      const { game } = request.query as { game?: number }
      hub.accept(socket, () => admissions[name](request, game))
    })
  }

  // What the bus tells, to whom.
  const notice = (m: BusTopics['game.notice']) =>
    hubs.user.broadcast(
      gameGroup(m.gameId),
      frame('ReceivedGameNotice', { ...m.notice, time: isoTime(m.notice.time) }),
    )
  const event = (m: BusTopics['game.event']) =>
    hubs.monitor.broadcast(
      gameGroup(m.gameId),
      frame('ReceivedGameEvent', { ...m.event, time: isoTime(m.event.time) }),
    )
  const judged = (m: BusTopics['submission.judged']) =>
    hubs.monitor.broadcast(
      gameGroup(m.gameId),
      frame('ReceivedSubmissions', { ...m.submission, time: isoTime(m.submission.time) }),
    )
  const log = (m: BusTopics['log.record']) =>
    hubs.admin.broadcast(ADMINS, frame('ReceivedLog', { ...m, time: isoTime(m.time) }))

  // Our addition: the board's new ETag, so players fetch it (one conditional GET) only when it
  // changed. A burst of rebuilds sends the first tag at once and the last one after the window
  // (on the injectable clock, so tests move past the window instead of waiting it out).
  const boards = new Map<number, { sentAt: number; timer: ClockTimer | null; etag: string }>()
  const pushBoard = (gameId: number, etag: string) => {
    boards.set(gameId, { sentAt: clock.now(), timer: null, etag })
    hubs.user.broadcast(gameGroup(gameId), frame('ReceivedScoreboardChanged', { etag: `W/"${etag}"` }))
  }
  const board = ({ gameId, etag }: BusTopics['board.changed']) => {
    if (hubs.user.count(gameGroup(gameId)) === 0) return
    const last = boards.get(gameId)
    if (!last) return pushBoard(gameId, etag)
    last.etag = etag
    if (last.timer) return
    const wait = last.sentAt + BOARD_PUSH_MS - clock.now()
    if (wait <= 0) return pushBoard(gameId, etag)
    last.timer = clock.setTimeout(() => pushBoard(gameId, last.etag), wait).unref()
  }

  const unsubscribe = [
    bus.subscribe('game.notice', notice),
    bus.subscribe('game.event', event),
    bus.subscribe('submission.judged', judged),
    bus.subscribe('log.record', log),
    bus.subscribe('board.changed', board),
    // Updates from other servers may have been missed (Redis was away): clients read again.
    bus.subscribe('live.resync', () => {
      for (const hub of Object.values(hubs)) hub.resync()
    }),
  ]
  app.addHook('onClose', async () => {
    for (const off of unsubscribe) off()
    for (const b of boards.values()) b.timer?.clear()
    for (const hub of Object.values(hubs)) hub.close()
  })
}

/** Registered at the root (not encapsulated), so `app.hubs` is visible to tests and the bench. */
export const hubRoutes = fp(hubsPlugin, { name: 'hubs' })

declare module 'fastify' {
  interface FastifyInstance {
    /** The live hubs (tests and the bench count their connections). */
    hubs: Record<'user' | 'monitor' | 'admin', Hub>
  }
}
