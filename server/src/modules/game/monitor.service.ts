import { and, desc, eq, ne } from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import type { Db } from '../../db/index.ts'
import {
  challenges,
  cheatInfo,
  gameEvents,
  participations,
  submissions,
  teams,
  users,
} from '../../db/schema.ts'
import { ParticipationStatusValues } from '../../engine/participation.ts'
import { nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import { requireGame } from './games.queries.ts'

const EVENT_NAMES = ['Normal', 'ContainerStart', 'ContainerDestroy', 'FlagSubmit', 'CheatDetected'] as const
const CONTAINER_EVENTS = [1, 2]

/** What monitors watch: the event log, every submission, and detected cheating (api-contract §2.6). */
export function createMonitorService(deps: { db: Db }) {
  const { db } = deps

  async function requireStarted(gameId: number) {
    const game = await requireGame(db, gameId)
    if (Date.now() < game.startTimeUtc.getTime()) throw fail('Game_NotStarted')
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
    async events(gameId: number, q: { hideContainer: boolean; count: number; skip: number }) {
      await requireStarted(gameId)
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
    async submissions(gameId: number, q: { type?: string; count: number; skip: number }) {
      await requireStarted(gameId)
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

    async cheats(gameId: number) {
      await requireStarted(gameId)
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
  }
}
export type MonitorService = ReturnType<typeof createMonitorService>
