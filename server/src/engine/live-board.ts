import { awardedScore, type BloodRank } from './blood-bonus.ts'
import {
  type BoardChallenge,
  type BoardInput,
  type BoardSolve,
  type BoardTeam,
  type ChallengeInfo,
  NO_TIME,
  type ScoreboardItem,
  type SubmissionType,
  type TopTimeLine,
} from './scoreboard.ts'
import { dynamicScore } from './scoring.ts'

/**
 * The scoreboard kept up to date one solve at a time, giving the same result as
 * `buildScoreboard` (tested against it) at a cost per solve that does not grow with the total
 * number of solves:
 * - a solve touches only its challenge's solvers (their points follow the challenge's score);
 * - each team's solved list is serialised once and reused until one of its points changes;
 * - a snapshot sorts the teams and joins the cached pieces.
 */

const BLOODS: SubmissionType[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood']
const TOP = 10

interface Solve {
  challengeId: number
  time: number
  userName: string | null
  /** Arrival order: breaks ties between equal times as the reference does (input order). */
  seq: number
  type: SubmissionType
  points: number
  /** This solve's JSON in the team's list, or null when its points or type changed. */
  json: string | null
}

interface TeamState {
  team: BoardTeam
  order: number
  /** The team's solves in time order. */
  solves: Solve[]
  score: number
  /** JSON of `"solvedChallenges":[…],"solvedCount":n`, or null when it must be rewritten. */
  solvedJson: string | null
  /** JSON of the fields that never change: id, name, bio, division, avatar. */
  head: string
}

interface ChallengeState {
  c: BoardChallenge
  /** Solves of accepted teams, in time order. */
  solvers: { team: TeamState; solve: Solve }[]
}

const bySolveOrder = (a: Solve, b: Solve) => a.time - b.time || a.seq - b.seq

export class LiveBoard {
  private readonly teams = new Map<number, TeamState>()
  private readonly challenges = new Map<number, ChallengeState>()
  private readonly ordered: ChallengeState[]
  private seq = 0

  constructor(private readonly input: Omit<BoardInput, 'solves' | 'now'>) {
    input.teams.forEach((team, order) => {
      const head = JSON.stringify({
        id: team.id,
        name: team.name,
        bio: team.bio,
        division: team.division,
        avatar: team.avatar,
      })
      this.teams.set(team.participationId, {
        team,
        order,
        solves: [],
        score: 0,
        solvedJson: null,
        head: head.slice(0, -1),
      })
    })
    for (const c of input.challenges) this.challenges.set(c.id, { c: { ...c }, solvers: [] })
    this.ordered = [...this.challenges.values()].sort(
      (a, b) => a.c.categoryOrder - b.c.categoryOrder || a.c.title.localeCompare(b.c.title),
    )
  }

  /** Loads many solves at once (start-up): one pass per challenge instead of one per solve. */
  static from(input: BoardInput): LiveBoard {
    const board = new LiveBoard(input)
    const touched = new Set<ChallengeState>()
    for (const s of input.solves) {
      const ch = board.record(s)
      if (ch) touched.add(ch)
    }
    for (const ch of touched) board.rescore(ch)
    return board
  }

  /** Adds an accepted solve (and the challenge's new solve count); ignored when it does not count. */
  addSolve(solve: BoardSolve, acceptedCount?: number): void {
    const ch = this.record(solve)
    if (!ch) return
    if (acceptedCount !== undefined) ch.c.acceptedCount = Math.max(ch.c.acceptedCount, acceptedCount)
    this.rescore(ch)
  }

  /** Stores a solve in its team and challenge; returns the challenge when it counts. */
  private record(s: BoardSolve): ChallengeState | null {
    const team = this.teams.get(s.participationId)
    const ch = this.challenges.get(s.challengeId)
    if (!team || !ch || s.time >= this.input.endTime) return null
    const solve: Solve = {
      challengeId: s.challengeId,
      time: s.time,
      userName: s.userName,
      seq: this.seq++,
      type: 'Normal',
      points: 0,
      json: null,
    }
    const existing = team.solves.findIndex((x) => x.challengeId === s.challengeId)
    if (existing >= 0) {
      // Only a team's earliest solve of a challenge counts.
      if (team.solves[existing]!.time <= s.time) return null
      const [old] = team.solves.splice(existing, 1)
      team.score -= old!.points
      ch.solvers.splice(
        ch.solvers.findIndex((x) => x.solve === old),
        1,
      )
    }
    insertSorted(team.solves, solve, bySolveOrder)
    insertSorted(ch.solvers, { team, solve }, (a, b) => bySolveOrder(a.solve, b.solve))
    team.solvedJson = null
    return ch
  }

  /** Recomputes bloods and points of one challenge's solvers; adjusts their teams' totals. */
  private rescore(ch: ChallengeState): void {
    const { c } = ch
    const score = dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount)
    ch.solvers.forEach(({ team, solve }, i) => {
      const type: SubmissionType = !c.disableBloodBonus && i < 3 ? BLOODS[i]! : 'Normal'
      const rank = type === 'Normal' ? null : ((i + 1) as BloodRank)
      const points = awardedScore(score, this.input.bloodBonus, rank)
      if (points !== solve.points || type !== solve.type) {
        team.score += points - solve.points
        solve.points = points
        solve.type = type
        solve.json = null
        team.solvedJson = null
      }
    })
  }

  private ranked(): TeamState[] {
    const last = (t: TeamState) => t.solves.at(-1)?.time ?? NO_TIME
    return [...this.teams.values()].sort(
      (a, b) => b.score - a.score || last(a) - last(b) || a.order - b.order,
    )
  }

  private challengeInfo(ch: ChallengeState): ChallengeInfo {
    const { c } = ch
    return {
      id: c.id,
      title: c.title,
      category: c.category,
      score: dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount),
      solved: c.acceptedCount,
      bloods: c.disableBloodBonus
        ? []
        : ch.solvers.slice(0, 3).map(({ team, solve }) => ({
            id: team.team.id,
            name: team.team.name,
            avatar: team.team.avatar,
            submitTimeUtc: solve.time,
          })),
      disableBloodBonus: c.disableBloodBonus,
    }
  }

  /** Challenges grouped by category, in the board's order (for the team details route). */
  challengeGroups(): Record<string, ChallengeInfo[]> {
    const grouped: Record<string, ChallengeInfo[]> = {}
    for (const ch of this.ordered)
      grouped[ch.c.category] = [...(grouped[ch.c.category] ?? []), this.challengeInfo(ch)]
    return grouped
  }

  get challengeCount(): number {
    return this.ordered.length
  }

  private item(t: TeamState, rank: number, divisionRank: number | null): ScoreboardItem {
    return {
      ...t.team,
      score: t.score,
      rank,
      divisionRank,
      lastSubmissionTime: t.solves.at(-1)?.time ?? NO_TIME,
      solvedChallenges: t.solves.map((s) => ({
        id: s.challengeId,
        score: s.points,
        type: s.type,
        userName: s.userName,
        time: s.time,
      })),
      solvedCount: t.solves.length,
    } as ScoreboardItem & { participationId?: number }
  }

  /** One team's line of the board (null when the team is not on it). */
  teamItem(teamId: number): ScoreboardItem | null {
    const ranked = this.ranked()
    const i = ranked.findIndex((t) => t.team.id === teamId)
    if (i < 0) return null
    const t = ranked[i]!
    const d = t.team.division
    const divisionRank =
      d === null ? null : ranked.slice(0, i + 1).filter((x) => x.team.division === d).length
    const { participationId: _, ...item } = this.item(t, i + 1, divisionRank) as ScoreboardItem & {
      participationId?: number
    }
    return item
  }

  /** The whole board as JSON, assembled from cached pieces. */
  toJson(now: number): string {
    const ranked = this.ranked()
    const divisionCount = new Map<string, number>()
    const parts: string[] = []
    const timeline = (t: TeamState): TopTimeLine => {
      let total = 0
      return {
        id: t.team.id,
        name: t.team.name,
        items: t.solves.map((s) => {
          total += s.points
          return { time: s.time, score: total }
        }),
      }
    }
    const lines: Record<string, TopTimeLine[]> = { all: ranked.slice(0, TOP).map(timeline) }
    ranked.forEach((t, i) => {
      const d = t.team.division
      let divisionRank: number | null = null
      if (d !== null) {
        divisionRank = (divisionCount.get(d) ?? 0) + 1
        divisionCount.set(d, divisionRank)
        if (divisionRank <= TOP) lines[d] = [...(lines[d] ?? []), timeline(t)]
      }
      // Only solves whose points changed are serialised again; the rest are reused.
      t.solvedJson ??= `"solvedChallenges":[${t.solves
        .map((s) => {
          s.json ??= JSON.stringify({
            id: s.challengeId,
            score: s.points,
            type: s.type,
            userName: s.userName,
            time: s.time,
          })
          return s.json
        })
        .join(',')}],"solvedCount":${t.solves.length}`
      const last = t.solves.at(-1)?.time ?? NO_TIME
      parts.push(
        `${t.head},"score":${t.score},"rank":${i + 1},"divisionRank":${divisionRank},"lastSubmissionTime":${last},${t.solvedJson}}`,
      )
    })
    return `{"updateTimeUtc":${now},"bloodBonus":${this.input.bloodBonus},"timeLines":${JSON.stringify(lines)},"items":[${parts.join(',')}],"challenges":${JSON.stringify(this.challengeGroups())},"challengeCount":${this.ordered.length}}`
  }
}

/** Inserts keeping the array sorted; equal elements keep arrival order. */
function insertSorted<T>(list: T[], value: T, compare: (a: T, b: T) => number): void {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compare(list[mid]!, value) <= 0) lo = mid + 1
    else hi = mid
  }
  list.splice(lo, 0, value)
}
