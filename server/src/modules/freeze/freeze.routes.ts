import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import { frozenSince } from '../../engine/freeze.ts'
import { fail } from '../../http/errors.ts'
import { errors, IdParams, Nullable } from '../../http/schema.ts'
import { requireVisibleGame } from '../contest/context.ts'
import { GameInfoModel } from '../edit/games.schemas.ts'

const tags = ['Extensions']

const FreezeStatus = Type.Object(
  {
    /** The `freeze` switch is on (off: freeze times are ignored). */
    enabled: Type.Boolean(),
    /** The game's freeze time (epoch ms), or null when it has none or the switch is off. */
    freezeAt: Nullable(Type.Integer()),
    /** The public board stands still at `freezeAt` now. */
    frozen: Type.Boolean(),
  },
  { description: 'Whether a game’s public scoreboard is frozen, and since when' },
)

/**
 * The scoreboard freeze (Pennant addition, `freeze` switch): whether a game is frozen (for the
 * banners of the scoreboard, challenge and game pages), and the admin's reveal.
 */
export const freezeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, editGames, freeze, audit } = app.deps.services

  app.get(
    '/games/:id/freeze',
    {
      schema: {
        summary: 'Whether the game’s public scoreboard is frozen, and since when',
        tags,
        params: IdParams,
        response: { 200: FreezeStatus, ...errors(404) },
      },
    },
    async (request) => {
      // Same visibility as the game itself: a hidden game is "not found" for non-admins.
      const game = await requireVisibleGame(app.deps.db, request.params.id, request.user)
      const enabled = settings.isOn('freeze')
      if (!enabled) return { enabled, freezeAt: null, frozen: false }
      const now = app.deps.clock.now()
      const since = frozenSince(game, true, now)
      // Before the freeze its time is public (organisers announce it); after a reveal it is history.
      const revealed = since === null && game.freezeAt !== null && now >= game.freezeAt.getTime()
      return {
        enabled,
        freezeAt: revealed ? null : (game.freezeAt?.getTime() ?? null),
        frozen: since !== null,
      }
    },
  )

  app.post(
    '/games/:id/reveal',
    {
      config: { auth: 'admin' },
      schema: {
        summary: 'Publish the true scoreboard of a frozen game now',
        tags,
        params: IdParams,
        response: { 200: GameInfoModel, ...errors(401, 403, 404) },
      },
    },
    async (request) => {
      if (!settings.isOn('freeze')) throw fail('Game_NotFrozen')
      const game = await editGames.reveal(
        request.params.id,
        (g) => frozenSince(g, true, app.deps.clock.now()) !== null,
      )
      // The true board rebuilt now (the hub tells players), and the bloods held back posted.
      await freeze.revealed(game.id, game.revealAt!)
      audit.action(
        'admin',
        request.user!,
        request.ip,
        `${request.user!.userName} revealed the scoreboard of game ${game.id}`,
      )
      return game
    },
  )
}
