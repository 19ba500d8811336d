import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from 'typebox'
import type { Scoreboard } from '../../engine/scoreboard.ts'
import { notModified } from '../../http/conditional.ts'
import { fail } from '../../http/errors.ts'
import { errors, IdParams } from '../../http/schema.ts'

const Standings = Type.Object(
  {
    standings: Type.Array(Type.Object({ pos: Type.Integer(), team: Type.String(), score: Type.Integer() })),
  },
  { description: 'The standings in the JSON format CTFtime imports' },
)

/**
 * The CTFtime feed (Pennant addition, `ctftime` switch): a game's standings as CTFtime imports
 * them, from the public board: the same visibility rules, and frozen while the board is (for
 * admins too: this is what gets published).
 */
export const ctftimeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { settings, scoreboard } = app.deps.services
  /** The last board parsed per game: the feed is read far less often than it changes. */
  const parsed = new Map<number, { etag: string; board: Scoreboard }>()

  app.get(
    '/games/:id/ctftime',
    {
      schema: {
        summary: 'The standings in the format CTFtime imports (per division with ?division=)',
        tags: ['Extensions'],
        params: IdParams,
        querystring: Type.Object({ division: Type.Optional(Type.String({ minLength: 1, maxLength: 31 })) }),
        response: { 200: Standings, ...errors(404) },
      },
    },
    async (request, reply) => {
      if (!settings.isOn('ctftime')) throw fail('Route_NotFound')
      const { id } = request.params
      const { entry } = await scoreboard.view(id, request.user, { public: true })
      if (entry.hidden && (request.user?.role ?? 0) < 3) throw fail('Game_NotFound')
      let cached = parsed.get(id)
      if (cached?.etag !== entry.etag) {
        cached = { etag: entry.etag, board: JSON.parse(entry.bytes.toString()) as Scoreboard }
        parsed.set(id, cached)
      }
      const { division } = request.query
      const items = cached.board.items
      if (division !== undefined && !items.some((i) => i.division === division)) {
        // A division of the game nobody plays in yet is an empty list; an unknown one, a 400.
        const game = await app.deps.services.editGames.get(id)
        if (!game.divisions?.includes(division)) throw fail('Game_InvalidDivision')
      }
      if (notModified(request, reply, `${entry.etag}-${division ?? ''}`, entry.updatedAt)) return reply
      const standings =
        division === undefined
          ? items.map((i) => ({ pos: i.rank, team: i.name, score: i.score }))
          : items
              .filter((i) => i.division === division)
              .map((i) => ({ pos: i.divisionRank ?? 0, team: i.name, score: i.score }))
      return { standings }
    },
  )
}
