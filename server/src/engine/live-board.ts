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
 * - a solve is inserted in its team's and its challenge's time-ordered lists (binary search)
 *   and marks the challenge changed; nothing else is computed per solve;
 * - points are not stored per solve: a solve earns its challenge's current points for its
 *   rank (normal, or blood 1 to 3), kept per challenge and recomputed once per change;
 * - before a snapshot, the changed challenges' solvers get their team totals recomputed;
 * - each team's solved list is kept as bytes: a solve that lands at its end (the usual case)
 *   is appended in place; the list is written again only when one of its points or bloods
 *   changed (each solve's JSON is its challenge's `{"id":…,"score":…,"type":…` plus its own
 *   tail);
 * - a snapshot sorts the teams and copies the bytes into one buffer, which the caller may
 *   supply: big boards are not allocated anew at each snapshot (fresh external memory of that
 *   size makes V8 run full garbage collections).
 */

const BLOODS: SubmissionType[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood']
const TYPES: SubmissionType[] = ['Normal', ...BLOODS]
const TOP = 10

interface Solve {
  ch: ChallengeState
  time: number
  userName: string | null
  /** Arrival order: breaks ties between equal times as the reference does (input order). */
  seq: number
  /** 0 for a normal solve, 1 to 3 for first to third blood. */
  rank: number
  /** The end of this solve's JSON: `,"userName":…,"time":…}`. */
  tail: string
}

interface TeamState {
  team: BoardTeam
  order: number
  /** The team's solves in time order. */
  solves: Solve[]
  /** Its solves by challenge id (a team counts one solve per challenge). */
  byChallenge: Map<number, Solve>
  score: number
  /** The score must be summed again (one of its challenges changed). */
  stale: boolean
  /** Solves added at the end since the score was summed: their points are added to it. */
  unscored: Solve[]
  /** UTF-8 of the team's solves as JSON objects joined by commas, up to `appended`. */
  solved: ByteList
  /** Solves added at the end of the list since `solved` was written. */
  appended: Solve[]
  /** `solved` must be written again (a point, a blood or the order changed). */
  rewrite: boolean
  /** JSON of the fields that never change: id, name, bio, division, avatar. */
  head: string
}

interface ChallengeState {
  c: BoardChallenge
  /** Solves of accepted teams, in time order. */
  solvers: { team: TeamState; solve: Solve }[]
  /** Points of a normal solve and of bloods 1 to 3, at the current solve count. */
  points: number[]
  /** `{"id":…,"score":…,"type":"…"` for each rank. */
  parts: string[]
}

const bySolveOrder = (a: Solve, b: Solve) => a.time - b.time || a.seq - b.seq

/** Bytes that grow in place (capacity doubles), so appending does not copy the whole list. */
class ByteList {
  private buf = Buffer.alloc(0)
  length = 0

  append(text: string): void {
    const need = this.length + Buffer.byteLength(text)
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(256, need * 2))
      this.buf.copy(grown, 0, 0, this.length)
      this.buf = grown
    }
    this.length += this.buf.write(text, this.length)
  }

  clear(): void {
    this.length = 0
  }

  copyTo(target: Buffer, offset: number): number {
    return this.buf.copy(target, offset, 0, this.length)
  }
}

export class LiveBoard {
  private readonly teams = new Map<number, TeamState>()
  private readonly challenges = new Map<number, ChallengeState>()
  private readonly ordered: ChallengeState[]
  /** Challenges whose points or solvers changed since the last `settle`. */
  private readonly changed = new Set<ChallengeState>()
  private seq = 0
  /**
   * Solves on the board. Servers that heard the same solves hold the same count, so a board
   * rendered elsewhere with at least this many covers every solve this one knows.
   */
  solveCount = 0

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
        byChallenge: new Map(),
        score: 0,
        stale: false,
        unscored: [],
        solved: new ByteList(),
        appended: [],
        rewrite: false,
        head: head.slice(0, -1),
      })
    })
    for (const c of input.challenges) {
      const ch: ChallengeState = { c: { ...c }, solvers: [], points: [], parts: [] }
      this.challenges.set(c.id, ch)
      this.changed.add(ch)
    }
    this.ordered = [...this.challenges.values()].sort(
      (a, b) => a.c.categoryOrder - b.c.categoryOrder || a.c.title.localeCompare(b.c.title),
    )
  }

  /** Loads many solves at once (start-up): sorted once, then appended in order. */
  static from(input: BoardInput): LiveBoard {
    const board = new LiveBoard(input)
    // A stable sort: equal times keep the input order.
    for (const s of [...input.solves].sort((a, b) => a.time - b.time)) {
      const team = board.teams.get(s.participationId)
      const ch = board.challenges.get(s.challengeId)
      // In time order, a team's first solve of a challenge is its earliest: later ones never count.
      if (!team || !ch || s.time >= input.endTime || team.byChallenge.has(ch.c.id)) continue
      const solve = board.newSolve(ch, s)
      team.solves.push(solve)
      team.appended.push(solve)
      team.byChallenge.set(ch.c.id, solve)
      board.solveCount++
      ch.solvers.push({ team, solve })
    }
    for (const ch of board.challenges.values()) board.rerank(ch)
    return board
  }

  /** Adds an accepted solve (and the challenge's new solve count); ignored when it does not count. */
  addSolve(s: BoardSolve, acceptedCount?: number): void {
    const team = this.teams.get(s.participationId)
    const ch = this.challenges.get(s.challengeId)
    if (!team || !ch || s.time >= this.input.endTime) return
    const existing = team.byChallenge.get(ch.c.id)
    if (existing) {
      // Only a team's earliest solve of a challenge counts.
      if (existing.time <= s.time) return
      team.solves.splice(team.solves.indexOf(existing), 1)
      ch.solvers.splice(
        ch.solvers.findIndex((x) => x.solve === existing),
        1,
      )
    }
    const solve = this.newSolve(ch, s)
    team.byChallenge.set(ch.c.id, solve)
    if (!existing) this.solveCount++
    // Appended when it is the team's latest solve; anywhere else the list is written again.
    if (insertSorted(team.solves, solve, bySolveOrder) === team.solves.length - 1 && !existing) {
      team.appended.push(solve)
      team.unscored.push(solve)
    } else {
      team.rewrite = true
      team.stale = true
    }
    insertSorted(ch.solvers, { team, solve }, (a, b) => bySolveOrder(a.solve, b.solve))
    if (acceptedCount !== undefined) ch.c.acceptedCount = Math.max(ch.c.acceptedCount, acceptedCount)
    this.rerank(ch)
  }

  private newSolve(ch: ChallengeState, s: BoardSolve): Solve {
    return {
      ch,
      time: s.time,
      userName: s.userName,
      seq: this.seq++,
      rank: 0,
      tail: `,"userName":${JSON.stringify(s.userName)},"time":${s.time}}`,
    }
  }

  /** The first three solvers hold the bloods (unless disabled); the rest are normal. */
  private rerank(ch: ChallengeState): void {
    const bloods = ch.c.disableBloodBonus ? 0 : 3
    // Only the first four can change rank when a solve is inserted or removed.
    for (let i = 0; i < Math.min(4, ch.solvers.length); i++) {
      const { team, solve } = ch.solvers[i]!
      const rank = i < bloods ? i + 1 : 0
      if (solve.rank === rank) continue
      solve.rank = rank
      team.stale = true
      team.rewrite = true
    }
    this.changed.add(ch)
  }

  /** Brings points and team totals up to date with the solves added since the last call. */
  private settle(): void {
    if (!this.changed.size) return
    for (const ch of this.changed) {
      const { c } = ch
      const score = dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount)
      const points = TYPES.map((_, rank) =>
        awardedScore(score, this.input.bloodBonus, rank === 0 ? null : (rank as BloodRank)),
      )
      // Same points (bloods that moved were handled by `rerank`): nothing to write again.
      if (ch.parts.length && points.every((p, i) => p === ch.points[i])) continue
      ch.points = points
      ch.parts = TYPES.map((type, rank) => `{"id":${c.id},"score":${points[rank]},"type":"${type}"`)
      for (const { team } of ch.solvers) {
        team.stale = true
        team.rewrite = true
      }
    }
    this.changed.clear()
    for (const t of this.teams.values()) {
      if (t.stale) {
        let score = 0
        for (const s of t.solves) score += s.ch.points[s.rank]!
        t.score = score
        t.stale = false
      } else for (const s of t.unscored) t.score += s.ch.points[s.rank]!
      if (t.unscored.length) t.unscored = []
    }
  }

  private ranked(): TeamState[] {
    this.settle()
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
        id: s.ch.c.id,
        score: s.ch.points[s.rank]!,
        type: TYPES[s.rank]!,
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

  /** The whole board as JSON text (see `toBytes`). */
  toJson(now: number): string {
    return this.toBytes(now).toString()
  }

  /**
   * The whole board as UTF-8 JSON, assembled from cached bytes: only the teams with a changed
   * solve are serialised again, the rest are copied as they are.
   */
  toBytes(now: number, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
    const ranked = this.ranked()
    const divisionCount = new Map<string, number>()
    /** Each team's line: the text before its solves and the text after them. */
    const heads: string[] = []
    const ends: string[] = []
    const timeline = (t: TeamState): TopTimeLine => {
      let total = 0
      return {
        id: t.team.id,
        name: t.team.name,
        items: t.solves.map((s) => {
          total += s.ch.points[s.rank]!
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
      if (t.rewrite) {
        t.solved.clear()
        t.solved.append(serialise(t.solves, false))
        t.rewrite = false
        t.appended = []
      } else if (t.appended.length) {
        t.solved.append(serialise(t.appended, t.solved.length > 0))
        t.appended = []
      }
      const last = t.solves.at(-1)?.time ?? NO_TIME
      heads.push(
        `${i ? ',' : ''}${t.head},"score":${t.score},"rank":${i + 1},"divisionRank":${divisionRank},"lastSubmissionTime":${last},"solvedChallenges":[`,
      )
      ends.push(`],"solvedCount":${t.solves.length}}`)
    })
    const start = `{"updateTimeUtc":${now},"bloodBonus":${this.input.bloodBonus},"timeLines":${JSON.stringify(lines)},"items":[`
    const finish = `],"challenges":${JSON.stringify(this.challengeGroups())},"challengeCount":${this.ordered.length}}`
    let size = Buffer.byteLength(start) + Buffer.byteLength(finish)
    ranked.forEach((t, i) => {
      size += Buffer.byteLength(heads[i]!) + t.solved.length + Buffer.byteLength(ends[i]!)
    })
    const out = alloc(size)
    let at = out.write(start)
    ranked.forEach((t, i) => {
      at += out.write(heads[i]!, at)
      at += t.solved.copyTo(out, at)
      at += out.write(ends[i]!, at)
    })
    at += out.write(finish, at)
    return out.subarray(0, at)
  }
}

/** Solves as JSON objects joined by commas (after a leading comma when `more`). */
function serialise(solves: Solve[], more: boolean): string {
  const pieces: string[] = []
  for (const s of solves) pieces.push(pieces.length || more ? ',' : '', s.ch.parts[s.rank]!, s.tail)
  return pieces.join('')
}

/** Inserts keeping the array sorted (equal elements keep arrival order); returns the index. */
function insertSorted<T>(list: T[], value: T, compare: (a: T, b: T) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (compare(list[mid]!, value) <= 0) lo = mid + 1
    else hi = mid
  }
  list.splice(lo, 0, value)
  return lo
}
