import { describe, expect, it } from 'vitest'
import { DEFAULT_BLOOD_BONUS } from './blood-bonus.ts'
import {
  type BoardChallenge,
  type BoardInput,
  type BoardTeam,
  buildScoreboard,
  NO_TIME,
} from './scoreboard.ts'

const team = (id: number, division: string | null = null): BoardTeam => ({
  id,
  participationId: id * 10,
  name: `team${id}`,
  bio: null,
  avatar: null,
  division,
})
const challenge = (id: number, over: Partial<BoardChallenge> = {}): BoardChallenge => ({
  id,
  title: `c${id}`,
  category: 'Web',
  categoryOrder: 3,
  originalScore: 1000,
  minScoreRate: 0.25,
  difficulty: 5,
  acceptedCount: 0,
  disableBloodBonus: false,
  ...over,
})
const solve = (challengeId: number, teamId: number, time: number) => ({
  challengeId,
  participationId: teamId * 10,
  userName: `u${teamId}`,
  time,
})

const board = (over: Partial<BoardInput>) =>
  buildScoreboard({
    bloodBonus: DEFAULT_BLOOD_BONUS,
    endTime: 1_000_000,
    teams: [],
    challenges: [],
    solves: [],
    now: 42,
    ...over,
  })

describe(buildScoreboard, () => {
  it('gives the first three solvers bloods worth +5% / +3% / +1% of the current score', () => {
    const b = board({
      teams: [team(1), team(2), team(3), team(4)],
      challenges: [challenge(7, { acceptedCount: 4 })],
      solves: [solve(7, 3, 300), solve(7, 1, 100), solve(7, 4, 400), solve(7, 2, 200)],
    })
    // score(4) of (1000, 0.25, 5) = floor(1000 × (0.25 + 0.75 × e^(−3/5))) = 661
    const current = 661
    expect(b.challenges.Web![0]).toMatchObject({ score: current, solved: 4 })
    expect(b.challenges.Web![0]!.bloods.map((x) => x.id)).toEqual([1, 2, 3])
    expect(b.items.map((i) => [i.id, i.score, i.rank, i.solvedChallenges[0]!.type])).toEqual([
      [1, 694, 1, 'FirstBlood'],
      [2, 681, 2, 'SecondBlood'],
      [3, 668, 3, 'ThirdBlood'],
      [4, 661, 4, 'Normal'],
    ])
  })

  it('breaks score ties by the earlier last solve, and never shares a rank', () => {
    const b = board({
      bloodBonus: 0,
      teams: [team(1), team(2), team(3)],
      challenges: [challenge(1, { acceptedCount: 1 }), challenge(2, { acceptedCount: 1 })],
      solves: [solve(1, 2, 50), solve(2, 1, 60)],
    })
    expect(b.items.map((i) => [i.id, i.score, i.rank])).toEqual([
      [2, 1000, 1],
      [1, 1000, 2],
      [3, 0, 3],
    ])
    expect(b.items[2]!.lastSubmissionTime).toBe(NO_TIME)
  })

  it('counts only the first solve of a team, and nothing at or after the end', () => {
    const b = board({
      endTime: 500,
      teams: [team(1), team(2)],
      challenges: [challenge(1, { acceptedCount: 1 })],
      solves: [solve(1, 1, 400), solve(1, 1, 100), solve(1, 2, 500)],
    })
    expect(b.items[0]).toMatchObject({ id: 1, solvedCount: 1, lastSubmissionTime: 100 })
    expect(b.items[1]).toMatchObject({ id: 2, solvedCount: 0, score: 0 })
  })

  it('ignores solves of teams not on the board and of challenges not listed', () => {
    const b = board({
      teams: [team(1)],
      challenges: [challenge(1)],
      solves: [solve(1, 9, 1), solve(2, 1, 2)],
    })
    expect(b.items[0]!.solvedCount).toBe(0)
    expect(b.challenges.Web![0]!.bloods).toEqual([])
  })

  it('gives no bloods on a challenge with the blood bonus disabled', () => {
    const b = board({
      teams: [team(1)],
      challenges: [challenge(1, { acceptedCount: 1, disableBloodBonus: true })],
      solves: [solve(1, 1, 1)],
    })
    expect(b.items[0]!.solvedChallenges[0]).toMatchObject({ type: 'Normal', score: 1000 })
    expect(b.challenges.Web![0]!.bloods).toEqual([])
  })

  it('groups challenges by category in category order, then by title', () => {
    const b = board({
      challenges: [
        challenge(1, { title: 'b', category: 'Web', categoryOrder: 3 }),
        challenge(2, { title: 'a', category: 'Web', categoryOrder: 3 }),
        challenge(3, { title: 'z', category: 'Misc', categoryOrder: 0 }),
      ],
    })
    expect(Object.keys(b.challenges)).toEqual(['Misc', 'Web'])
    expect(b.challenges.Web!.map((c) => c.title)).toEqual(['a', 'b'])
    expect(b.challengeCount).toBe(3)
  })

  it('ranks within divisions and keeps top-ten timelines overall and per division', () => {
    const teams = Array.from({ length: 12 }, (_, i) => team(i + 1, i % 2 ? 'Student' : 'Open'))
    const b = board({
      bloodBonus: 0,
      teams: [...teams, team(99)],
      challenges: [challenge(1, { acceptedCount: 1 })],
      solves: teams.map((t, i) => solve(1, t.id, 10 + i)),
    })
    expect(b.items.find((i) => i.id === 2)!.divisionRank).toBe(1)
    expect(b.items.find((i) => i.id === 3)!.divisionRank).toBe(2)
    expect(b.items.find((i) => i.id === 99)!.divisionRank).toBeNull()
    expect(b.timeLines.all).toHaveLength(10)
    expect(b.timeLines.Open).toHaveLength(6)
    expect(b.timeLines.Student!.map((l) => l.id)).toEqual([2, 4, 6, 8, 10, 12])
    expect(b.timeLines.all![0]).toEqual({ id: 1, name: 'team1', items: [{ time: 10, score: 1000 }] })
  })

  it('accumulates each team’s timeline in time order', () => {
    const b = board({
      bloodBonus: 0,
      teams: [team(1)],
      challenges: [
        challenge(1, { acceptedCount: 1 }),
        challenge(2, { acceptedCount: 1, originalScore: 300 }),
      ],
      solves: [solve(2, 1, 20), solve(1, 1, 10)],
    })
    expect(b.timeLines.all![0]!.items).toEqual([
      { time: 10, score: 1000 },
      { time: 20, score: 1300 },
    ])
  })
})
