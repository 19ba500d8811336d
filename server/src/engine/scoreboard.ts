import { awardedScore, type BloodRank } from './blood-bonus.ts'
import { dynamicScore } from './scoring.ts'

/** What the board is built from: plain rows, already filtered to one game. */
export interface BoardTeam {
  id: number
  participationId: number
  name: string
  bio: string | null
  avatar: string | null
  division: string | null
}
export interface BoardChallenge {
  id: number
  title: string
  /** Category name and its enum value (the board groups by name, orders by value). */
  category: string
  categoryOrder: number
  originalScore: number
  minScoreRate: number
  difficulty: number
  acceptedCount: number
  disableBloodBonus: boolean
}
export interface BoardSolve {
  challengeId: number
  participationId: number
  userName: string | null
  /** Epoch ms of the accepted submission. */
  time: number
  /**
   * The submission's id: between equal times (flags recorded by one statement share their
   * millisecond) the lower id came first, as the judge counted them for bloods.
   */
  id?: number
}
export interface BoardInput {
  bloodBonus: number
  /** Solves at or after the end never count. */
  endTime: number
  /** Accepted participations only. */
  teams: BoardTeam[]
  /** Enabled challenges only. */
  challenges: BoardChallenge[]
  solves: BoardSolve[]
  now: number
}

export type SubmissionType = 'Unaccepted' | 'FirstBlood' | 'SecondBlood' | 'ThirdBlood' | 'Normal'
const BLOODS: SubmissionType[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood']

/** "No solve yet", as upstream writes `DateTimeOffset.MinValue`. */
export const NO_TIME = -62135596800000

export interface ChallengeItem {
  id: number
  score: number
  type: SubmissionType
  userName: string | null
  time: number
}
export interface ScoreboardItem {
  id: number
  name: string
  bio: string | null
  division: string | null
  avatar: string | null
  score: number
  rank: number
  divisionRank: number | null
  lastSubmissionTime: number
  solvedChallenges: ChallengeItem[]
  solvedCount: number
}
export interface Blood {
  id: number
  name: string
  avatar: string | null
  submitTimeUtc: number | null
}
export interface ChallengeInfo {
  id: number
  title: string
  category: string
  score: number
  solved: number
  bloods: Blood[]
  disableBloodBonus: boolean
}
export interface TopTimeLine {
  id: number
  name: string
  items: { time: number; score: number }[]
}
export interface Scoreboard {
  updateTimeUtc: number
  bloodBonus: number
  timeLines: Record<string, TopTimeLine[]>
  items: ScoreboardItem[]
  challenges: Record<string, ChallengeInfo[]>
  challengeCount: number
}

const TOP = 10

/**
 * Builds a game's scoreboard (game-engine §4.4), step by step:
 * 1. each team's earliest solve per challenge, before the end, by an accepted team;
 * 2. in time order: the first three solvers of a challenge get its bloods (unless disabled),
 *    each solve earns the challenge's current score times its blood factor;
 * 3. teams ordered by score, then by the earlier last solve; ranks 1..N, no ties;
 * 4. ranks within divisions; 5. the top-ten timelines, overall and per division.
 */
export function buildScoreboard(input: BoardInput): Scoreboard {
  const challenges = [...input.challenges].sort(
    (a, b) => a.categoryOrder - b.categoryOrder || a.title.localeCompare(b.title),
  )
  const byChallenge = new Map(
    challenges.map((c) => [
      c.id,
      {
        c,
        info: {
          id: c.id,
          title: c.title,
          category: c.category,
          score: dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount),
          solved: c.acceptedCount,
          bloods: [] as Blood[],
          disableBloodBonus: c.disableBloodBonus,
        },
      },
    ]),
  )
  const byParticipation = new Map(
    input.teams.map((t, order) => [
      t.participationId,
      {
        order,
        team: t,
        item: {
          id: t.id,
          name: t.name,
          bio: t.bio,
          division: t.division,
          avatar: t.avatar,
          score: 0,
          rank: 0,
          divisionRank: null as number | null,
          lastSubmissionTime: NO_TIME,
          solvedChallenges: [] as ChallengeItem[],
          solvedCount: 0,
        },
        timeline: [] as { time: number; score: number }[],
      },
    ]),
  )

  // 1. Earliest counted solve per (challenge, team).
  const first = new Map<string, BoardSolve>()
  for (const s of input.solves) {
    if (s.time >= input.endTime || !byChallenge.has(s.challengeId) || !byParticipation.has(s.participationId))
      continue
    const key = `${s.challengeId}:${s.participationId}`
    const seen = first.get(key)
    if (!seen || s.time < seen.time) first.set(key, s)
  }
  // Equal times in submission id order when known, else (a stable sort) in input order.
  const solves = [...first.values()].sort((a, b) => a.time - b.time || (a.id ?? 0) - (b.id ?? 0))

  // 2. Bloods and points, in time order.
  for (const s of solves) {
    const { c, info } = byChallenge.get(s.challengeId)!
    const entry = byParticipation.get(s.participationId)!
    let type: SubmissionType = 'Normal'
    if (!c.disableBloodBonus && info.bloods.length < 3) {
      type = BLOODS[info.bloods.length]!
      info.bloods.push({
        id: entry.team.id,
        name: entry.team.name,
        avatar: entry.team.avatar,
        submitTimeUtc: s.time,
      })
    }
    const rank = type === 'Normal' ? null : ((BLOODS.indexOf(type) + 1) as BloodRank)
    const points = awardedScore(info.score, input.bloodBonus, rank)
    entry.item.solvedChallenges.push({ id: c.id, score: points, type, userName: s.userName, time: s.time })
    entry.item.solvedCount++
    entry.item.score += points
    entry.item.lastSubmissionTime = s.time
    entry.timeline.push({ time: s.time, score: entry.item.score })
  }

  // 3. Order and ranks.
  const ranked = [...byParticipation.values()].sort(
    (a, b) =>
      b.item.score - a.item.score ||
      a.item.lastSubmissionTime - b.item.lastSubmissionTime ||
      a.order - b.order,
  )
  const divisionCount = new Map<string, number>()
  ranked.forEach((e, i) => {
    e.item.rank = i + 1
    // 4. Rank within the division.
    const d = e.item.division
    if (d !== null) {
      const n = (divisionCount.get(d) ?? 0) + 1
      divisionCount.set(d, n)
      e.item.divisionRank = n
    }
  })

  // 5. Timelines of the best ten, overall and per division.
  const line = (e: (typeof ranked)[number]): TopTimeLine => ({
    id: e.team.id,
    name: e.team.name,
    items: e.timeline,
  })
  const timeLines: Record<string, TopTimeLine[]> = { all: ranked.slice(0, TOP).map(line) }
  for (const division of divisionCount.keys()) {
    timeLines[division] = ranked
      .filter((e) => e.item.division === division)
      .slice(0, TOP)
      .map(line)
  }

  const grouped: Record<string, ChallengeInfo[]> = {}
  for (const c of challenges) {
    grouped[c.category] = [...(grouped[c.category] ?? []), byChallenge.get(c.id)!.info]
  }

  return {
    updateTimeUtc: input.now,
    bloodBonus: input.bloodBonus,
    timeLines,
    items: ranked.map((e) => e.item),
    challenges: grouped,
    challengeCount: challenges.length,
  }
}
