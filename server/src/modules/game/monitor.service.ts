import { and, desc, eq, inArray, ne } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/index.ts'
import {
  challenges,
  cheatInfo,
  gameEvents,
  participations,
  submissions,
  teamMembers,
  teams,
  users,
} from '../../db/schema.ts'
import { ParticipationStatusValues } from '../../engine/participation.ts'
import type { Scoreboard } from '../../engine/scoreboard.ts'
import { nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Clock } from '../../infra/clock/index.ts'
import { workbook } from '../assets/xlsx.ts'
import { requireVisibleGame } from '../contest/context.ts'
import { phaseOf } from '../contest/games.queries.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import type { ScoreboardService } from './scoreboard.service.ts'
import { stamp } from './writeups.service.ts'

const EVENT_NAMES = ['Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected'] as const
const CONTAINER_EVENTS = [1, 2]

/** What monitors watch: the event log, every submission, and detected cheating (api-contract §2.6). */
export function createMonitorService(deps: { db: Db; scoreboard: ScoreboardService; clock: Clock }) {
  const { db } = deps

  /** A started game the caller may see: hidden games are 404 to monitors too (decisions.md item 9). */
  async function requireStarted(actor: SessionUser, gameId: number) {
    const game = await requireVisibleGame(db, gameId, actor)
    if (phaseOf(game, deps.clock.now()) === 'upcoming') throw fail('Game_NotStarted')
    return game
  }

  const submissionColumns = {
    answer: submissions.answer,
    status: submissions.status,
    time: submissions.submitTimeUtc,
    user: users.userName,
    team: teams.name,
    challenge: challenges.title,
  }
  const presentSubmission = (r: {
    answer: string
    status: (typeof submissions.$inferSelect)['status']
    time: Date
    user: string | null
    team: string
    challenge: string
  }) => ({
    ...r,
    time: r.time.getTime(),
    user: r.user ?? '',
  })

  return {
    async events(
      actor: SessionUser,
      gameId: number,
      q: { hideContainer: boolean; count: number; skip: number },
    ) {
      await requireStarted(actor, gameId)
      const rows = await db
        .select({ e: gameEvents, user: users.userName, team: teams.name })
        .from(gameEvents)
        .leftJoin(users, eq(users.id, gameEvents.userId))
        .leftJoin(teams, eq(teams.id, gameEvents.teamId))
        .where(
          and(
            eq(gameEvents.gameId, gameId),
            q.hideContainer
              ? and(ne(gameEvents.type, CONTAINER_EVENTS[0]!), ne(gameEvents.type, CONTAINER_EVENTS[1]!))
              : undefined,
          ),
        )
        .orderBy(desc(gameEvents.id))
        .limit(q.count)
        .offset(q.skip)
      return rows.map(({ e, user, team }) => ({
        type: EVENT_NAMES[e.type] ?? 'Normal',
        values: e.values,
        time: e.publishTimeUtc.getTime(),
        user: user ?? '',
        team: team ?? '',
      }))
    },

    /** Newest first; `count` 0 means all of them. */
    async submissions(actor: SessionUser, gameId: number, q: { type?: string; count: number; skip: number }) {
      await requireStarted(actor, gameId)
      const base = db
        .select(submissionColumns)
        .from(submissions)
        .innerJoin(teams, eq(teams.id, submissions.teamId))
        .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(
          and(
            eq(submissions.gameId, gameId),
            q.type ? eq(submissions.status, q.type as 'Accepted') : undefined,
          ),
        )
        .orderBy(desc(submissions.id))
      const rows = q.count === 0 ? await base : await base.limit(q.count).offset(q.skip)
      return rows.map(presentSubmission)
    },

    async cheats(actor: SessionUser, gameId: number) {
      await requireStarted(actor, gameId)
      const owner = alias(participations, 'owner')
      const ownerTeam = alias(teams, 'owner_team')
      const submitter = alias(participations, 'submitter')
      const rows = await db
        .select({ info: cheatInfo, owner, ownerTeam, submitter, submitTeam: teams, sub: submissionColumns })
        .from(cheatInfo)
        .innerJoin(owner, eq(owner.id, cheatInfo.sourceParticipationId))
        .innerJoin(ownerTeam, eq(ownerTeam.id, owner.teamId))
        .innerJoin(submitter, eq(submitter.id, cheatInfo.submitParticipationId))
        .innerJoin(submissions, eq(submissions.id, cheatInfo.submissionId))
        .innerJoin(teams, eq(teams.id, submitter.teamId))
        .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(eq(cheatInfo.gameId, gameId))
        .orderBy(desc(cheatInfo.submissionId))
      const participation = (p: typeof participations.$inferSelect, t: typeof teams.$inferSelect) => ({
        id: p.id,
        team: { id: t.id, name: t.name, avatar: avatarUrl(t.avatarHash) },
        status: nameOf(ParticipationStatusValues, p.status),
        division: p.division,
      })
      return rows.map((r) => ({
        ownedTeam: participation(r.owner, r.ownerTeam),
        submitTeam: participation(r.submitter, r.submitTeam),
        submission: presentSubmission(r.sub),
      }))
    },

    /** The scoreboard with contact details, one column per challenge (organisers' export). */
    async scoreboardSheet(actor: SessionUser, gameId: number) {
      const game = await requireStarted(actor, gameId)
      const board = JSON.parse((await deps.scoreboard.get(gameId)).bytes.toString()) as Scoreboard
      const teamIds = board.items.map((i) => i.id)
      const people = teamIds.length
        ? await db
            .select({ teamId: teamMembers.teamId, user: users, captainId: teams.captainId })
            .from(teamMembers)
            .innerJoin(users, eq(users.id, teamMembers.userId))
            .innerJoin(teams, eq(teams.id, teamMembers.teamId))
            .where(inArray(teamMembers.teamId, teamIds))
        : []
      const challengeList = Object.values(board.challenges).flat()
      const withDivision = game.divisions.length > 0
      const header = [
        'Rank',
        'Team',
        ...(withDivision ? ['Division'] : []),
        'Captain',
        'Members',
        'Real names',
        'E-mails',
        'Student numbers',
        'Phones',
        'Solved',
        'Last solve (UTC)',
        'Score',
        ...challengeList.map((c) => c.title),
      ]
      const rows = board.items.map((item) => {
        const members = people
          .filter((p) => p.teamId === item.id)
          .map((p) => ({ ...p.user, captain: p.user.id === p.captainId }))
        const join = (f: (m: (typeof members)[number]) => string | null) =>
          members.map(f).filter(Boolean).join(', ')
        const points = new Map(item.solvedChallenges.map((s) => [s.id, s.score]))
        return [
          item.rank,
          item.name,
          ...(withDivision ? [item.division] : []),
          members.find((m) => m.captain)?.userName ?? '',
          join((m) => m.userName),
          join((m) => m.realName),
          join((m) => m.email),
          join((m) => m.stdNumber),
          join((m) => m.phone),
          item.solvedCount,
          item.solvedCount ? new Date(item.lastSubmissionTime).toISOString() : '',
          item.score,
          ...challengeList.map((c) => points.get(c.id) ?? 0),
        ]
      })
      return {
        fileName: `${game.title}-Scoreboard-${stamp(new Date())}.xlsx`,
        bytes: workbook('Scoreboard', header, rows),
      }
    },

    /** Every submission of the game, oldest first. */
    async submissionSheet(actor: SessionUser, gameId: number) {
      const game = await requireStarted(actor, gameId)
      const rows = await db
        .select({ ...submissionColumns, email: users.email })
        .from(submissions)
        .innerJoin(teams, eq(teams.id, submissions.teamId))
        .innerJoin(challenges, eq(challenges.id, submissions.challengeId))
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(eq(submissions.gameId, gameId))
        .orderBy(submissions.id)
      const when = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14)
      return {
        fileName: `${game.title}_Submissions_${when}.xlsx`,
        bytes: workbook(
          'Submissions',
          ['Status', 'Time (UTC)', 'Team', 'User', 'Challenge', 'Answer', 'E-mail'],
          rows.map((r) => [
            r.status,
            r.time.toISOString(),
            r.team,
            r.user ?? '',
            r.challenge,
            r.answer,
            r.email ?? '',
          ]),
        ),
      }
    },
  }
}
export type MonitorService = ReturnType<typeof createMonitorService>
