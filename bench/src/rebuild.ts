/**
 * `npm run rebuild -w bench`: what one scoreboard rebuild costs in CPU, in this process and
 * without a server, so the figure holds on a busy machine (the least of many rounds is taken:
 * other work only ever adds to a round). Per board of `--teams 1000,6000` teams (30 challenges,
 * 10 solves per team, dynamic scores): the board's heap, then `--rounds 80` rebuilds of
 * `--solves 150` new solves each (every challenge's points change, as under a burst of correct
 * flags): its bytes (`toBytes`) and its tag (`boardTag`), and Brotli at the board's quality and
 * gzip (what compressing a version ahead costs). `--board path/to/live-board.ts` measures another
 * version of the board (e.g. `git show <commit>:server/src/engine/live-board.ts > /tmp/old.ts`
 * with its imports pointed back at server/src/engine). Run it with `node --expose-gc` for the heap.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { BoardInput, BoardSolve } from '../../server/src/engine/scoreboard.ts'
import { compress } from '../../server/src/http/compression.ts'
import { boardTag } from '../../server/src/modules/game/scoreboard.service.ts'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(`--${name}`)
  return i >= 0 ? args[i + 1]! : fallback
}
const here = path.dirname(fileURLToPath(import.meta.url))
const boardFile = path.resolve(opt('board', path.join(here, '../../server/src/engine/live-board.ts')))
const { LiveBoard } = (await import(boardFile)) as typeof import('../../server/src/engine/live-board.ts')
const CHALLENGES = 30
const PER_TEAM = 10
const rounds = Number(opt('rounds', '80'))
const perRound = Number(opt('solves', '150'))

/** A small deterministic random generator (the same solves for every version measured). */
function rng(seed: number) {
  let s = seed >>> 0
  return (n: number) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0
    return s % n
  }
}

const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since)
  return (d.user + d.system) / 1000
}
const gc = (globalThis as { gc?: () => void }).gc

async function measure(teams: number) {
  const input: BoardInput = {
    bloodBonus: 52459530,
    endTime: Number.MAX_SAFE_INTEGER,
    now: 0,
    teams: Array.from({ length: teams }, (_, i) => ({
      id: i + 1,
      participationId: i + 1,
      name: `Team ${i + 1}`,
      bio: null,
      avatar: null,
      division: null,
    })),
    challenges: Array.from({ length: CHALLENGES }, (_, i) => ({
      id: i + 1,
      title: `Challenge ${i}`,
      category: 'Misc',
      categoryOrder: 0,
      originalScore: 1000,
      minScoreRate: 0.25,
      difficulty: 5,
      acceptedCount: 0,
      disableBloodBonus: false,
    })),
    solves: [],
  }
  let time = 1_800_000_000_000
  const counts = new Array<number>(CHALLENGES).fill(0)
  const solved = input.teams.map(() => new Set<number>())
  const solve = (team: number, c: number): BoardSolve => {
    solved[team]!.add(c)
    counts[c]!++
    return { challengeId: c + 1, participationId: team + 1, userName: `player${team}`, time: time++ }
  }
  for (let t = 0; t < teams; t++)
    for (let k = 0; k < PER_TEAM; k++) input.solves.push(solve(t, (t * 7 + k * 3) % CHALLENGES))
  input.challenges.forEach((c, i) => {
    c.acceptedCount = counts[i]!
  })

  gc?.()
  const heapBefore = process.memoryUsage().heapUsed
  const board = LiveBoard.from(input)
  board.toBytes(0)
  gc?.()
  const heap = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20

  const r = rng(teams)
  const slab = Buffer.allocUnsafeSlow(32 << 20)
  const costs: number[] = []
  let bytes: Buffer = Buffer.alloc(0)
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < perRound; k++) {
      const t = r(teams)
      if (solved[t]!.size >= CHALLENGES) continue
      let c = r(CHALLENGES)
      while (solved[t]!.has(c)) c = (c + 1) % CHALLENGES
      const s = solve(t, c)
      board.addSolve(s, counts[c]!)
    }
    const started = process.cpuUsage()
    bytes = board.toBytes(round, () => slab)
    boardTag(1, bytes)
    costs.push(cpuMs(started))
  }
  const brotli: number[] = []
  const gzip: number[] = []
  const copy = Buffer.from(bytes)
  for (let i = 0; i < 5; i++) {
    let started = process.cpuUsage()
    await compress(copy, 'br', 5)
    brotli.push(cpuMs(started))
    started = process.cpuUsage()
    await compress(copy, 'gzip')
    gzip.push(cpuMs(started))
  }
  costs.sort((a, b) => a - b)
  return {
    teams,
    mib: bytes.length / 2 ** 20,
    heap,
    least: costs[0]!,
    median: costs[costs.length >> 1]!,
    brotli: Math.min(...brotli),
    gzip: Math.min(...gzip),
  }
}

console.log(
  `Board: ${path.relative(process.cwd(), boardFile)}; ${perRound} solves per rebuild, ${rounds} rebuilds`,
)
console.log(
  '| teams | board | heap | rebuild CPU: least / median | one version compressed: Brotli q5, gzip |',
)
console.log('|---|---|---|---|---|')
for (const teams of opt('teams', '1000,6000').split(',').map(Number)) {
  const m = await measure(teams)
  console.log(
    `| ${m.teams} | ${m.mib.toFixed(2)} MiB | ${gc ? `${m.heap.toFixed(1)} MiB` : '(--expose-gc)'} | ${m.least.toFixed(1)} / ${m.median.toFixed(1)} ms | ${m.brotli.toFixed(0)}, ${m.gzip.toFixed(0)} ms |`,
  )
}
