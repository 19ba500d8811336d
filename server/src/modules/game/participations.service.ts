import { and, asc, eq, inArray, sql } from 'drizzle-orm'
import type { Db, DbOrTx } from '../../db/index.ts'
import {
  challenges,
  gameInstances,
  participations,
  teamMembers,
  teams,
  userParticipations,
  users,
} from '../../db/schema.ts'
import {
  canTransition,
  type ParticipationStatusName,
  ParticipationStatusValues,
} from '../../engine/participation.ts'
import { nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import { presentProfile } from '../account/account.presenters.ts'
import { type GameRow, requireGame } from '../contest/games.queries.ts'
import { teamHead } from '../team/team.presenters.ts'

/** A division is valid when the game has none and none is given, or it is one of the game's. */
export const isValidDivision = (game: GameRow, division: string | null | undefined) =>
  game.divisions.length === 0 ? division == null : division != null && game.divisions.includes(division)

/** Gives an accepted team an instance of every enabled challenge it lacks. */
export async function addMissingInstances(tx: DbOrTx, gameId: number, participationId: number) {
  await tx.execute(sql`
    insert into ${gameInstances} (challenge_id, participation_id)
    select ${challenges.id}, ${participationId} from ${challenges}
    where ${challenges.gameId} = ${gameId} and ${challenges.isEnabled}
    on conflict do nothing`)
}

/** Teams taking part in games, as organisers review them (api-contract §2.2, §2.6). */
export function createParticipationService(deps: { db: Db; onChanged?: (gameId: number) => void }) {
  const { db } = deps
  return {
    /** Every participation of a game with its team, members and registered players. */
    async list(gameId: number) {
      await requireGame(db, gameId)
      const rows = await db
        .select({ p: participations, team: teams })
        .from(participations)
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .where(eq(participations.gameId, gameId))
        .orderBy(asc(teams.id))
      if (!rows.length) return []
      const teamIds = rows.map((r) => r.team.id)
      const members = await db
        .select({ teamId: teamMembers.teamId, user: users })
        .from(teamMembers)
        .innerJoin(users, eq(users.id, teamMembers.userId))
        .where(inArray(teamMembers.teamId, teamIds))
      const registered = await db
        .select({ participationId: userParticipations.participationId, userId: userParticipations.userId })
        .from(userParticipations)
        .where(eq(userParticipations.gameId, gameId))
      return rows.map(({ p, team }) => ({
        id: p.id,
        team: {
          ...teamHead(team),
          captainId: team.captainId,
          members: members.filter((m) => m.teamId === team.id).map(({ user }) => presentProfile(user)),
        },
        registeredMembers: registered.filter((r) => r.participationId === p.id).map((r) => r.userId),
        division: p.division,
        status: nameOf(ParticipationStatusValues, p.status),
      }))
    },

    /**
     * Review: accept, reject, suspend or re-admit a team, and move it between divisions.
     * Accepting locks the team and gives it the game's enabled challenges.
     */
    async review(id: number, input: { status?: ParticipationStatusName | null; division?: string | null }) {
      const [p] = await db.select().from(participations).where(eq(participations.id, id))
      if (!p) throw fail('Participation_NotFound')
      const game = await requireGame(db, p.gameId)
      const from = nameOf(ParticipationStatusValues, p.status)
      const to = input.status ?? from
      if (to !== from && !canTransition(from, to))
        throw fail('Participation_TransitionInvalid', { params: [from, to] })
      if (
        input.division !== undefined &&
        input.division !== p.division &&
        !isValidDivision(game, input.division)
      ) {
        throw fail('Game_InvalidDivision')
      }
      await db.transaction(async (tx) => {
        const set: Partial<typeof participations.$inferInsert> = { status: ParticipationStatusValues[to] }
        if (input.division !== undefined) set.division = input.division
        await tx.update(participations).set(set).where(eq(participations.id, id))
        if (to === 'Accepted' && from !== 'Accepted') {
          await tx.update(teams).set({ locked: true }).where(eq(teams.id, p.teamId))
          await addMissingInstances(tx, p.gameId, id)
        }
      })
      deps.onChanged?.(p.gameId)
    },

    /** Used by tests and the join flow: the participation of a team in a game. */
    async find(gameId: number, teamId: number) {
      const [p] = await db
        .select()
        .from(participations)
        .where(and(eq(participations.gameId, gameId), eq(participations.teamId, teamId)))
      return p
    },
  }
}
export type ParticipationService = ReturnType<typeof createParticipationService>
