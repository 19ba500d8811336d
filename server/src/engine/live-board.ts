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
 * `buildScoreboard` (tested against it) at a cost per snapshot that grows with what changed,
 * plus one copy of the board's bytes:
 * - a solve is inserted in its team's and its challenge's time-ordered lists (binary search)
 *   and marks its team and challenge changed; nothing else is computed per solve;
 * - points are not stored per solve: a solve earns its challenge's current points for its
 *   rank (normal, or blood 1 to 3), kept per challenge and recomputed once per change; only
 *   the teams whose score may have moved are summed again before a snapshot;
 * - the teams stay in rank order between snapshots: a snapshot sorts the previous order again,
 *   which costs about one comparison per team when few teams moved (the sort is adaptive);
 * - each team's solved list is kept as bytes, with the offset of every solve's points: when a
 *   challenge's points change (nearly every solve, with dynamic scores) to as many digits, its
 *   solvers' lists get the new digits written in place; a list is written again only when
 *   its order, a blood or the points' width changed; a solve that lands at its end (the
 *   usual case) is appended;
 * - a snapshot writes each team's numbers and copies its bytes into one buffer, which the
 *   caller may supply: big boards are not allocated anew at each snapshot (fresh external
 *   memory of that size makes V8 run full garbage collections).
 */

const BLOODS: SubmissionType[] = ['FirstBlood', 'SecondBlood', 'ThirdBlood']
const TYPES: SubmissionType[] = ['Normal', ...BLOODS]
const TOP = 10
const COMMA = 0x2c
const ZERO = 0x30

/** One counted solve (a few fields only: a board of 6 000 teams holds tens of thousands). */
interface Solve {
  ch: ChallengeState
  team: TeamState
  time: number
  /** Who submitted it (null: an account since deleted), shared by all of their solves. */
  user: { name: string; json: string } | null
  /** The submission's id (-1 when not given): breaks ties between equal times. */
  id: number
  /** Arrival order: breaks ties between equal times without ids, as the reference does (input order). */
  seq: number
  /** 0 for a normal solve, 1 to 3 for first to third blood. */
  rank: number
  /** Offset of its points' digits in its team's `solved` (-1: not written yet). */
  at: number
}

interface TeamState {
  team: BoardTeam
  order: number
  /** The team's solves in time order. */
  solves: Solve[]
  score: number
  /** Time of the last solve (NO_TIME before the first). */
  last: number
  /** UTF-8 of the team's solves as JSON objects joined by commas, up to `appended`. */
  solved: ByteList
  /** Solves added at the end of the list since `solved` was written. */
  appended: Solve[]
  /** `solved` must be written again (the order, a blood or the width of some points changed). */
  rewrite: boolean
  /** 1-based rank and rank within the division, as of the last sort. */
  rank: number
  divisionRank: number | null
  /** UTF-8 of `{"id":…,"name":…,"bio":…,"division":…,"avatar":…` (fields that never change). */
  head: Buffer
}

interface ChallengeState {
  c: BoardChallenge
  /** Solves of accepted teams, in time order. */
  solvers: Solve[]
  /** Points of a normal solve and of bloods 1 to 3, at the current solve count. */
  points: number[]
  /** Their decimal text, as written in the solvers' lists. */
  digits: string[]
}

const bySolveOrder = (a: Solve, b: Solve) =>
  a.time - b.time || (a.id >= 0 && b.id >= 0 ? a.id - b.id : 0) || a.seq - b.seq
const byRank = (a: TeamState, b: TeamState) => b.score - a.score || a.last - b.last || a.order - b.order

/** Room left after a list's first write: a few more solves before it must grow. */
const FIRST_SLACK = 256

/**
 * Bytes that grow in place (capacity doubles once written), so appending does not copy the
 * whole list. The first write takes its size plus a little room: a board loaded at start-up
 * writes every list once, and doubling each then held twice the board's size. Buffers come from
 * Node's shared pool (`allocUnsafe`): a list is ~1 KB, and an ArrayBuffer of its own per team
 * cost ~10 µs and a few hundred bytes each.
 */
class ByteList {
  buf = Buffer.alloc(0)
  length = 0
  /** `buf` up to `length`, made again only when either changed. */
  private view = this.buf

  append(text: string): void {
    const need = this.length + Buffer.byteLength(text)
    if (need > this.buf.length) {
      const grown = Buffer.allocUnsafe(this.buf.length ? need * 2 : need + FIRST_SLACK)
      this.buf.copy(grown, 0, 0, this.length)
      this.buf = grown
    }
    this.length += this.buf.write(text, this.length)
  }

  clear(): void {
    this.length = 0
  }

  copyTo(target: Buffer, offset: number): number {
    if (this.view.buffer !== this.buf.buffer || this.view.length !== this.length)
      this.view = this.buf.subarray(0, this.length)
    target.set(this.view, offset)
    return this.length
  }
}

/** Writes the digits of `n` (a non-negative integer of exactly `width` digits) at `at`. */
function putDigits(buf: Buffer, at: number, width: number, n: number): void {
  for (let i = at + width - 1; i >= at; i--) {
    buf[i] = ZERO + (n % 10)
    n = Math.floor(n / 10)
  }
}

export class LiveBoard {
  private readonly teams = new Map<number, TeamState>()
  /** Teams by team id (the team details route), the first participation of each. */
  private readonly byTeamId = new Map<number, TeamState>()
  private readonly challenges = new Map<number, ChallengeState>()
  private readonly ordered: ChallengeState[]
  /** Every team, in rank order as of the last sort. */
  private readonly ranking: TeamState[]
  /** Challenges whose points or solvers changed since the last `settle`. */
  private readonly changed = new Set<ChallengeState>()
  /** Teams whose score must be summed again (a solve, a point or a blood of theirs changed). */
  private readonly stale = new Set<TeamState>()
  /** A score or a last solve time changed since the last sort. */
  private unsorted = true
  private seq = 0
  /**
   * Each player's name once, with its JSON text: the database hands every solve its own copy,
   * and a board holds tens of thousands of solves by a few thousand players.
   */
  private readonly names = new Map<string, { name: string; json: string }>()
  /**
   * Solves on the board. Servers that heard the same solves hold the same count, so a board
   * rendered elsewhere with at least this many covers every solve this one knows.
   */
  solveCount = 0

  /** The input's solves are not kept: they are in the teams' and challenges' lists. */
  constructor(private readonly input: Omit<BoardInput, 'solves' | 'now'>) {
    input.teams.forEach((team, order) => {
      const head = JSON.stringify({
        id: team.id,
        name: team.name,
        bio: team.bio,
        division: team.division,
        avatar: team.avatar,
      })
      const state: TeamState = {
        team,
        order,
        solves: [],
        score: 0,
        last: NO_TIME,
        solved: new ByteList(),
        appended: [],
        rewrite: false,
        rank: 0,
        divisionRank: null,
        head: Buffer.from(head.slice(0, -1)),
      }
      this.teams.set(team.participationId, state)
      if (!this.byTeamId.has(team.id)) this.byTeamId.set(team.id, state)
    })
    this.ranking = [...this.teams.values()]
    for (const c of input.challenges) {
      const ch: ChallengeState = { c: { ...c }, solvers: [], points: [], digits: [] }
      this.challenges.set(c.id, ch)
      this.changed.add(ch)
    }
    this.ordered = [...this.challenges.values()].sort(
      (a, b) => a.c.categoryOrder - b.c.categoryOrder || a.c.title.localeCompare(b.c.title),
    )
  }

  /** Loads many solves at once (start-up): sorted once, then appended in order. */
  static from({ solves, now: _now, ...rest }: BoardInput): LiveBoard {
    const board = new LiveBoard(rest)
    // Equal times in id order, else (a stable sort) in input order.
    for (const s of [...solves].sort((a, b) => a.time - b.time || (a.id ?? 0) - (b.id ?? 0))) {
      const team = board.teams.get(s.participationId)
      const ch = board.challenges.get(s.challengeId)
      // In time order, a team's first solve of a challenge is its earliest: later ones never count.
      if (!team || !ch || s.time >= rest.endTime || solveOf(team, ch)) continue
      const solve = board.newSolve(ch, team, s)
      team.solves.push(solve)
      team.appended.push(solve)
      team.last = solve.time
      board.stale.add(team)
      board.solveCount++
      ch.solvers.push(solve)
    }
    for (const ch of board.challenges.values()) board.rerank(ch)
    return board
  }

  /** Adds an accepted solve (and the challenge's new solve count); ignored when it does not count. */
  addSolve(s: BoardSolve, acceptedCount?: number): void {
    const team = this.teams.get(s.participationId)
    const ch = this.challenges.get(s.challengeId)
    if (!team || !ch || s.time >= this.input.endTime) return
    const existing = solveOf(team, ch)
    if (existing) {
      // Only a team's earliest solve of a challenge counts.
      if (existing.time <= s.time) return
      team.solves.splice(team.solves.indexOf(existing), 1)
      ch.solvers.splice(ch.solvers.indexOf(existing), 1)
    }
    const solve = this.newSolve(ch, team, s)
    if (!existing) this.solveCount++
    // Appended when it is the team's latest solve; anywhere else the list is written again.
    if (insertSorted(team.solves, solve, bySolveOrder) === team.solves.length - 1 && !existing)
      team.appended.push(solve)
    else team.rewrite = true
    team.last = team.solves.at(-1)!.time
    this.stale.add(team)
    insertSorted(ch.solvers, solve, bySolveOrder)
    if (acceptedCount !== undefined) ch.c.acceptedCount = Math.max(ch.c.acceptedCount, acceptedCount)
    this.rerank(ch)
  }

  private newSolve(ch: ChallengeState, team: TeamState, s: BoardSolve): Solve {
    let user: Solve['user'] = null
    if (s.userName !== null) {
      user = this.names.get(s.userName) ?? null
      if (!user) {
        user = { name: s.userName, json: JSON.stringify(s.userName) }
        this.names.set(s.userName, user)
      }
    }
    return {
      ch,
      team,
      time: s.time,
      user,
      id: s.id ?? -1,
      seq: this.seq++,
      rank: 0,
      at: -1,
    }
  }

  /** The first three solvers hold the bloods (unless disabled); the rest are normal. */
  private rerank(ch: ChallengeState): void {
    const bloods = ch.c.disableBloodBonus ? 0 : 3
    // Only the first four can change rank when a solve is inserted or removed.
    for (let i = 0; i < Math.min(4, ch.solvers.length); i++) {
      const solve = ch.solvers[i]!
      const { team } = solve
      const rank = i < bloods ? i + 1 : 0
      if (solve.rank === rank) continue
      solve.rank = rank
      this.stale.add(team)
      team.rewrite = true
    }
    this.changed.add(ch)
  }

  /**
   * Brings points and team totals up to date with the solves added since the last call: new
   * points of as many digits are written into the solvers' lists in place.
   */
  private settle(): void {
    for (const ch of this.changed) {
      const { c } = ch
      const score = dynamicScore(c.originalScore, c.minScoreRate, c.difficulty, c.acceptedCount)
      const points = TYPES.map((_, rank) =>
        awardedScore(score, this.input.bloodBonus, rank === 0 ? null : (rank as BloodRank)),
      )
      // Same points (bloods that moved were handled by `rerank`): no solver's total moves.
      if (ch.digits.length && points.every((p, i) => p === ch.points[i])) continue
      const digits = points.map(String)
      const inPlace =
        ch.digits.length > 0 &&
        points.every(
          (p, i) => Number.isSafeInteger(p) && p >= 0 && digits[i]!.length === ch.digits[i]!.length,
        )
      ch.points = points
      ch.digits = digits
      for (const solve of ch.solvers) {
        const { team } = solve
        this.stale.add(team)
        if (!inPlace) team.rewrite = true
        else if (solve.at >= 0 && !team.rewrite)
          putDigits(team.solved.buf, solve.at, digits[solve.rank]!.length, points[solve.rank]!)
      }
    }
    this.changed.clear()
    if (!this.stale.size) return
    for (const t of this.stale) {
      let score = 0
      for (const s of t.solves) score += s.ch.points[s.rank]!
      t.score = score
    }
    this.stale.clear()
    this.unsorted = true
  }

  /** The teams in rank order, their ranks and division ranks up to date. */
  private ranked(): TeamState[] {
    this.settle()
    if (!this.unsorted) return this.ranking
    // The previous order is nearly sorted: TimSort takes its runs as they are.
    this.ranking.sort(byRank)
    const divisionCount = new Map<string, number>()
    for (let i = 0; i < this.ranking.length; i++) {
      const t = this.ranking[i]!
      t.rank = i + 1
      const d = t.team.division
      if (d === null) t.divisionRank = null
      else {
        t.divisionRank = (divisionCount.get(d) ?? 0) + 1
        divisionCount.set(d, t.divisionRank)
      }
    }
    this.unsorted = false
    return this.ranking
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
        : ch.solvers.slice(0, 3).map((solve) => ({
            id: solve.team.team.id,
            name: solve.team.team.name,
            avatar: solve.team.team.avatar,
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

  private item(t: TeamState): ScoreboardItem {
    return {
      id: t.team.id,
      name: t.team.name,
      bio: t.team.bio,
      division: t.team.division,
      avatar: t.team.avatar,
      score: t.score,
      rank: t.rank,
      divisionRank: t.divisionRank,
      lastSubmissionTime: t.last,
      solvedChallenges: t.solves.map((s) => ({
        id: s.ch.c.id,
        score: s.ch.points[s.rank]!,
        type: TYPES[s.rank]!,
        userName: s.user?.name ?? null,
        time: s.time,
      })),
      solvedCount: t.solves.length,
    }
  }

  /** One team's line of the board (null when the team is not on it). */
  teamItem(teamId: number): ScoreboardItem | null {
    const t = this.byTeamId.get(teamId)
    if (!t) return null
    this.ranked()
    return this.item(t)
  }

  /** The whole board as JSON text (see `toBytes`). */
  toJson(now: number): string {
    return this.toBytes(now).toString()
  }

  /**
   * The whole board as UTF-8 JSON, assembled from cached bytes: per team only its numbers are
   * written, its fixed fields and its solved list are copied.
   */
  toBytes(now: number, alloc: (size: number) => Buffer = Buffer.allocUnsafe): Buffer {
    const ranked = this.ranked()
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
    /** Each team's numbers before its solves (ASCII only, so its length is its size). */
    const mids: string[] = new Array(ranked.length)
    let size = 0
    for (let i = 0; i < ranked.length; i++) {
      const t = ranked[i]!
      const d = t.team.division
      if (d !== null && t.divisionRank! <= TOP) lines[d] = [...(lines[d] ?? []), timeline(t)]
      if (t.rewrite) {
        t.solved.clear()
        write(t, t.solves)
        t.rewrite = false
        t.appended = []
      } else if (t.appended.length) {
        write(t, t.appended)
        t.appended = []
      }
      const mid = `,"score":${t.score},"rank":${t.rank},"divisionRank":${t.divisionRank},"lastSubmissionTime":${t.last},"solvedChallenges":[`
      mids[i] = mid
      // A comma before, the head, the numbers, the solves, `],"solvedCount":N}`.
      size += (i ? 1 : 0) + t.head.length + mid.length + t.solved.length + 17 + String(t.solves.length).length
    }
    const start = Buffer.from(
      `{"updateTimeUtc":${now},"bloodBonus":${this.input.bloodBonus},"timeLines":${JSON.stringify(lines)},"items":[`,
    )
    const finish = Buffer.from(
      `],"challenges":${JSON.stringify(this.challengeGroups())},"challengeCount":${this.ordered.length}}`,
    )
    size += start.length + finish.length
    const out = alloc(size)
    out.set(start, 0)
    let at = start.length
    for (let i = 0; i < ranked.length; i++) {
      const t = ranked[i]!
      if (i) out[at++] = COMMA
      out.set(t.head, at)
      at += t.head.length
      at += out.write(mids[i]!, at, 'latin1')
      at += t.solved.copyTo(out, at)
      at += out.write(`],"solvedCount":${t.solves.length}}`, at, 'latin1')
    }
    out.set(finish, at)
    at += finish.length
    return out.subarray(0, at)
  }
}

/**
 * Appends solves to a team's list as JSON objects joined by commas, noting where each one's
 * points are written.
 */
function write(t: TeamState, solves: Solve[]): void {
  const pieces: string[] = []
  let at = t.solved.length
  for (const s of solves) {
    const { c } = s.ch
    const before = `${at ? ',' : ''}{"id":${c.id},"score":`
    const digits = s.ch.digits[s.rank]!
    const type = TYPES[s.rank]!
    s.at = at + before.length
    const tail = `,"userName":${s.user?.json ?? 'null'},"time":${s.time}}`
    pieces.push(before, digits, ',"type":"', type, '"', tail)
    // `,"type":"` and `"` are 10 bytes.
    at = s.at + digits.length + 10 + type.length + Buffer.byteLength(tail)
  }
  t.solved.append(pieces.join(''))
}

/** The team's counted solve of a challenge, if any (a team solves a few dozen at most). */
function solveOf(team: TeamState, ch: ChallengeState): Solve | undefined {
  const { solves } = team
  for (let i = solves.length - 1; i >= 0; i--) if (solves[i]!.ch === ch) return solves[i]
  return undefined
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
