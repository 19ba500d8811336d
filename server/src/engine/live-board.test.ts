import { describe, expect, it } from 'vitest'
import { DEFAULT_BLOOD_BONUS } from './blood-bonus.ts'
import { LiveBoard } from './live-board.ts'
import { type BoardInput, type BoardSolve, buildScoreboard } from './scoreboard.ts'

/** A small deterministic random generator, so a failing case can be replayed. */
function rng(seed: number) {
  let s = seed >>> 0
  return (n: number) => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s % n
  }
}

function randomGame(seed: number): BoardInput {
  const r = rng(seed)
  const teams = Array.from({ length: 3 + r(25) }, (_, i) => ({
    id: 100 + i,
    participationId: 1000 + i,
    name: `team ${i}`,
    bio: r(2) ? null : 'bio',
    avatar: null,
    division: [null, 'Open', 'Student'][r(3)]!,
  }))
  const challenges = Array.from({ length: 1 + r(8) }, (_, i) => ({
    id: 10 + i,
    title: `c${r(5)}-${i}`,
    category: ['Misc', 'Web', 'Pwn'][i % 3]!,
    categoryOrder: [0, 3, 2][i % 3]!,
    originalScore: 100 * (1 + r(10)),
    minScoreRate: r(5) / 10,
    difficulty: r(8),
    acceptedCount: 0,
    disableBloodBonus: r(5) === 0,
  }))
  const endTime = 1_000_000
  const used = new Set<number>()
  const time = () => {
    let t: number
    do t = r(1_100_000)
    while (used.has(t))
    used.add(t)
    return t
  }
  const solves: BoardSolve[] = []
  for (let i = 0; i < r(120); i++) {
    const team = r(8) === 0 ? { participationId: 9999 } : teams[r(teams.length)]!
    solves.push({
      challengeId: challenges[r(challenges.length)]!.id,
      participationId: team.participationId,
      userName: `u${r(9)}`,
      time: time(),
    })
  }
  // Stored solve counts, as the database keeps them (may include teams no longer on the board).
  for (const c of challenges) {
    const solvers = new Set(
      solves.filter((s) => s.challengeId === c.id && s.time < endTime).map((s) => s.participationId),
    )
    c.acceptedCount = solvers.size + r(3)
  }
  return {
    bloodBonus: [DEFAULT_BLOOD_BONUS, 0, 1023][r(3)]! % 2 ** 30,
    endTime,
    teams,
    challenges,
    solves,
    now: 123,
  }
}

describe(LiveBoard, () => {
  it.each(Array.from({ length: 60 }, (_, i) => i + 1))(
    'gives the reference board for random game %i, solves arriving in any order',
    (seed) => {
      const input = randomGame(seed)
      const expected = buildScoreboard(input)
      expect(JSON.parse(LiveBoard.from(input).toJson(123))).toEqual(expected)

      const r = rng(seed * 7)
      const shuffled = [...input.solves].sort(() => r(3) - 1)
      const live = new LiveBoard(input)
      for (const s of shuffled) live.addSolve(s)
      expect(JSON.parse(live.toJson(123))).toEqual(expected)
      expect(live.challengeGroups()).toEqual(expected.challenges)
      for (const item of expected.items) expect(live.teamItem(item.id)).toEqual(item)
    },
  )

  it.each(Array.from({ length: 30 }, (_, i) => i + 1))(
    'stays equal to the reference between snapshots, solves arriving one by one (game %i)',
    (seed) => {
      // Snapshots at irregular steps: appended lists, rewritten ones and untouched ones mix.
      replay(seed, 13, 3, ({ live, input, challenges, solves }) => {
        expect(JSON.parse(live.toJson(123))).toEqual(buildScoreboard({ ...input, challenges, solves }))
      })
    },
  )

  it.each(Array.from({ length: 30 }, (_, i) => i + 1))(
    'writes, solve by solve, the very bytes of a board built afresh, into a buffer of their exact size (game %i)',
    (seed) => {
      // Points rewritten in place, lists appended or written again, teams moving in the order:
      // none of it may leave a byte different from serialising the same solves from scratch.
      replay(seed, 17, 2, ({ live, input, challenges, solves }) => {
        let asked = -1
        const bytes = live.toBytes(123, (size) => {
          asked = size
          return Buffer.alloc(size + 64)
        })
        expect(bytes.length).toBe(asked)
        expect(bytes.toString()).toBe(LiveBoard.from({ ...input, challenges, solves }).toJson(123))
      })
    },
  )

  it('keeps a team’s line right when a challenge’s points change width or its bloods move', () => {
    // 1000 points fall to three digits with the second solve; a later solve that is earlier
    // than the first takes the first blood from it.
    const input: BoardInput = {
      bloodBonus: DEFAULT_BLOOD_BONUS,
      endTime: 1_000_000,
      teams: [1, 2, 3].map((i) => ({
        id: i,
        participationId: 10 + i,
        name: `tëam ${i}`,
        bio: null,
        avatar: null,
        division: i === 2 ? 'Student' : null,
      })),
      challenges: [
        {
          id: 7,
          title: 'c',
          category: 'Web',
          categoryOrder: 1,
          originalScore: 1000,
          minScoreRate: 0.25,
          difficulty: 3,
          acceptedCount: 0,
          disableBloodBonus: false,
        },
      ],
      solves: [],
      now: 0,
    }
    const solves: BoardSolve[] = [
      { challengeId: 7, participationId: 11, userName: 'ä', time: 500 },
      { challengeId: 7, participationId: 12, userName: null, time: 600 },
      { challengeId: 7, participationId: 13, userName: 'c', time: 400 },
    ]
    const live = new LiveBoard(input)
    solves.forEach((s, k) => {
      live.addSolve(s, k + 1)
      const expected = buildScoreboard({
        ...input,
        challenges: [{ ...input.challenges[0]!, acceptedCount: k + 1 }],
        solves: solves.slice(0, k + 1),
      })
      expect(JSON.parse(live.toJson(5))).toEqual({ ...expected, updateTimeUtc: 5 })
      for (const item of expected.items) expect(live.teamItem(item.id)).toEqual(item)
    })
    expect(live.teamItem(99)).toBeNull()
  })

  it('orders solves of the same millisecond by submission id, however they arrive', () => {
    // Flags recorded by one statement share their millisecond; the judge counts bloods in id
    // order, so the board (built live or from the database's rows) must name the same teams.
    const input = randomGame(7)
    const c = input.challenges[0]!
    const [a, b] = input.teams
    const empty = { ...input, challenges: [{ ...c, disableBloodBonus: false }], solves: [] }
    const later = { challengeId: c.id, participationId: b!.participationId, userName: 'b', time: 5, id: 42 }
    const earlier = { challengeId: c.id, participationId: a!.participationId, userName: 'a', time: 5, id: 41 }
    const bloodOf = (board: { items: { id: number; solvedChallenges: { id: number; type: string }[] }[] }) =>
      Object.fromEntries(
        board.items.map((i) => [i.id, i.solvedChallenges.find((x) => x.id === c.id)?.type ?? null]),
      )
    const live = new LiveBoard(empty)
    live.addSolve(later, 1)
    live.addSolve(earlier, 2)
    const fromRows = LiveBoard.from({ ...empty, solves: [later, earlier] })
    const reference = buildScoreboard({ ...empty, solves: [later, earlier] })
    for (const board of [JSON.parse(live.toJson(1)), JSON.parse(fromRows.toJson(1)), reference]) {
      expect(bloodOf(board)[a!.id]).toBe('FirstBlood')
      expect(bloodOf(board)[b!.id]).toBe('SecondBlood')
    }
  })

  it('raises a challenge’s solve count as solves are judged', () => {
    const input = randomGame(5)
    const c = input.challenges[0]!
    const team = input.teams[0]!
    const live = new LiveBoard({
      ...input,
      challenges: input.challenges.map((x) => ({ ...x, acceptedCount: 0 })),
    })
    live.addSolve({ challengeId: c.id, participationId: team.participationId, userName: 'x', time: 5 }, 4)
    expect(live.challengeGroups()[c.category]!.find((x) => x.id === c.id)!.solved).toBe(4)
  })
})

/**
 * Plays a random game's solves into a live board one by one, in a shuffled order, with solve
 * counts growing as the judge counts them (so points change between snapshots too), and calls
 * `check` after about one solve in `every` and after the last, with the inputs so far.
 */
function replay(
  seed: number,
  salt: number,
  every: number,
  check: (now: {
    live: LiveBoard
    input: BoardInput
    challenges: BoardInput['challenges']
    solves: BoardInput['solves']
  }) => void,
) {
  const input = randomGame(seed)
  const r = rng(seed * salt)
  const shuffled = [...input.solves].sort(() => r(3) - 1)
  const solvers = new Map(input.challenges.map((c) => [c.id, new Set<number>()]))
  const counts = () => input.challenges.map((c) => ({ ...c, acceptedCount: solvers.get(c.id)!.size }))
  const live = new LiveBoard({ ...input, challenges: counts() })
  shuffled.forEach((s, k) => {
    if (s.time < input.endTime) solvers.get(s.challengeId)!.add(s.participationId)
    live.addSolve(s, solvers.get(s.challengeId)!.size)
    if (r(every) === 0 || k === shuffled.length - 1)
      check({ live, input, challenges: counts(), solves: shuffled.slice(0, k + 1) })
  })
}
