import { and, count, desc, eq, ne } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { games, participations, teamMembers, teams, userParticipations } from '../../db/schema.ts'
import { gamePhase } from '../../engine/game-phase.ts'
import { signTeamToken } from '../../engine/keys.ts'
import { ParticipationStatusValues } from '../../engine/participation.ts'
import { nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { findOwnParticipation, isClosed, requireVisibleGame } from '../contest/context.ts'
import { type GameRow, posterUrl } from '../contest/games.queries.ts'
import { addMissingInstances, isValidDivision, type ParticipationService } from './participations.service.ts'

export const presentBasicGame = (g: GameRow) => ({
  id: g.id,
  title: g.title,
  summary: g.summary,
  poster: posterUrl(g.posterHash),
  limit: g.teamMemberCountLimit,
  start: g.startTimeUtc.getTime(),
  end: g.endTimeUtc.getTime(),
})

/** How far a game is from now: the key of the "recent games" order. */
function distance(g: GameRow, now: number) {
  const start = g.startTimeUtc.getTime()
  const end = g.endTimeUtc.getTime()
  const phase = gamePhase(start, end, now)
  if (phase === 'ended') return now - end
  if (phase === 'upcoming') return start - now
  return Math.min(now - start, end - now)
}

/** Players' side of games: browsing, joining and leaving (api-contract §2.6). */
export function createGameService(deps: {
  db: Db
  clock: Clock
  participations: ParticipationService
  onChanged?: (gameId: number) => void
}) {
  const { db } = deps
  return {
    async list(page: { count: number; skip: number }) {
      const rows = await db
        .select()
        .from(games)
        .where(eq(games.hidden, false))
        .orderBy(desc(games.startTimeUtc), desc(games.id))
        .limit(page.count)
        .offset(page.skip)
      const [total] = await db.select({ n: count() }).from(games).where(eq(games.hidden, false))
      return { data: rows.map(presentBasicGame), length: rows.length, total: total?.n ?? 0 }
    },

    async recent(limit: number) {
      const now = deps.clock.now()
      const rows = await db.select().from(games).where(eq(games.hidden, false))
      const sorted = rows.sort((a, b) => distance(a, now) - distance(b, now))
      return sorted.slice(0, limit > 0 ? Math.min(limit, 50) : 50).map(presentBasicGame)
    },

    async detail(gameId: number, actor: SessionUser | null) {
      // Read side by side: the first request of every team at a contest's opening, when each
      // round trip waits behind everyone else's.
      const [game, [teamCount], [own]] = await Promise.all([
        requireVisibleGame(db, gameId, actor),
        db.select({ n: count() }).from(participations).where(eq(participations.gameId, gameId)),
        actor
          ? db
              .select({ p: participations, name: teams.name })
              .from(userParticipations)
              .innerJoin(participations, eq(participations.id, userParticipations.participationId))
              .innerJoin(teams, eq(teams.id, participations.teamId))
              .where(and(eq(userParticipations.gameId, gameId), eq(userParticipations.userId, actor.id)))
          : [],
      ])
      const mine = own?.p
      const team = own && { name: own.name }
      return {
        id: game.id,
        title: game.title,
        summary: game.summary,
        content: game.content,
        hidden: game.hidden,
        divisions: game.divisions,
        inviteCodeRequired: Boolean(game.inviteCode),
        writeupRequired: game.writeupRequired,
        poster: posterUrl(game.posterHash),
        limit: game.teamMemberCountLimit,
        teamCount: teamCount?.n ?? 0,
        division: mine?.division ?? null,
        teamName: team?.name ?? null,
        practiceMode: game.practiceMode,
        status: mine ? nameOf(ParticipationStatusValues, mine.status) : ('Unsubmitted' as const),
        start: game.startTimeUtc.getTime(),
        end: game.endTimeUtc.getTime(),
      }
    },

    /** Joins the caller to a game for one of their teams (game-engine §2.3). */
    async join(
      actor: SessionUser,
      gameId: number,
      input: { teamId: number; division?: string | null; inviteCode?: string | null },
    ) {
      const game = await requireVisibleGame(db, gameId, actor)
      if (isClosed(game, deps.clock.now())) throw fail('Game_Ended')
      if (game.inviteCode && game.inviteCode !== input.inviteCode) throw fail('Game_InvalidInvitationCode')
      const division = input.division?.trim() || null
      if (!isValidDivision(game, division)) throw fail('Game_InvalidDivision')
      const [team] = await db.select().from(teams).where(eq(teams.id, input.teamId))
      if (!team) throw fail('Team_NotFound')
      const [member] = await db
        .select()
        .from(teamMembers)
        .where(and(eq(teamMembers.teamId, team.id), eq(teamMembers.userId, actor.id)))
      if (!member) throw fail('Game_NotMemberOfTeam')

      const accepted = await db.transaction(async (tx) => {
        const current = await findOwnParticipation(tx, gameId, actor.id)
        if (current && current.status !== ParticipationStatusValues.Rejected) throw fail('Game_InOtherTeam')
        // A rejected registration of the caller is replaced by this one.
        await tx
          .delete(userParticipations)
          .where(and(eq(userParticipations.gameId, gameId), eq(userParticipations.userId, actor.id)))
        await tx
          .insert(participations)
          .values({ gameId, teamId: team.id, division, token: signTeamToken(team.id, game) })
          .onConflictDoNothing()
        const [p] = await tx
          .select()
          .from(participations)
          .where(and(eq(participations.gameId, gameId), eq(participations.teamId, team.id)))
        if (game.teamMemberCountLimit > 0) {
          const [n] = await tx
            .select({ n: count() })
            .from(userParticipations)
            .where(eq(userParticipations.participationId, p!.id))
          if ((n?.n ?? 0) >= game.teamMemberCountLimit) throw fail('Game_TeamMemberLimitExceeded')
        }
        await tx
          .insert(userParticipations)
          .values({ gameId, teamId: team.id, userId: actor.id, participationId: p!.id })
        const status =
          p!.status === ParticipationStatusValues.Rejected ? ParticipationStatusValues.Pending : p!.status
        await tx.update(participations).set({ division, status }).where(eq(participations.id, p!.id))
        if (game.acceptWithoutReview && status === ParticipationStatusValues.Pending) {
          await tx
            .update(participations)
            .set({ status: ParticipationStatusValues.Accepted })
            .where(eq(participations.id, p!.id))
          await tx.update(teams).set({ locked: true }).where(eq(teams.id, team.id))
          await addMissingInstances(tx, gameId, p!.id)
          return true
        }
        return false
      })
      deps.onChanged?.(gameId)
      return { accepted }
    },

    /** Leaves a game whose registration is still pending or rejected (game-engine §2.4). */
    async leave(actor: SessionUser, gameId: number): Promise<void> {
      await requireVisibleGame(db, gameId, actor)
      const mine = await findOwnParticipation(db, gameId, actor.id)
      if (!mine) throw fail('Game_CannotLeaveWithoutJoin')
      if (
        mine.status !== ParticipationStatusValues.Pending &&
        mine.status !== ParticipationStatusValues.Rejected
      ) {
        throw fail('Game_CannotLeaveAfterApproval')
      }
      await db.transaction(async (tx) => {
        await tx
          .delete(userParticipations)
          .where(and(eq(userParticipations.gameId, gameId), eq(userParticipations.userId, actor.id)))
        const [left] = await tx
          .select({ n: count() })
          .from(userParticipations)
          .where(
            and(eq(userParticipations.participationId, mine.id), ne(userParticipations.userId, actor.id)),
          )
        if (!left?.n) await tx.delete(participations).where(eq(participations.id, mine.id))
      })
      deps.onChanged?.(gameId)
    },
  }
}
export type GameService = ReturnType<typeof createGameService>
