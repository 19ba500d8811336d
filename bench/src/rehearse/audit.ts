/**
 * The audit after the contest, read back through the API as the organiser:
 *  - every acknowledged submission (POST answered 200 with an id) is stored exactly once and
 *    judged right: its status by id (as its team) is final and as expected, and the monitor's
 *    submission list holds it (team + challenge + flag) once with that verdict;
 *  - bloods: per challenge exactly one first, second and third blood (as far as there were
 *    solvers), the earliest solvers, on the board and as notices;
 *  - each team's solved set on the board equals its accepted submissions;
 *  - the board is the same JSON on every server.
 */
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { type Recorder, Session, sleep } from './client.ts'
import type { World } from './profile.ts'

export interface Audit {
  acknowledged: number
  lost: number
  duplicates: number
  misjudged: number
  unjudged: number
  bloodErrors: number
  boardMismatches: number
  boardsEqual: boolean
  problems: string[]
}

interface Stored {
  answer: string
  status: string
  time: number
  user: string
  team: string
  challenge: string
}

interface Board {
  items: { id: number; name: string; solvedChallenges: { id: number; type: string }[] }[]
  challenges: Record<string, { id: number; title: string; bloods: { id: number; name: string }[] }[]>
}

export async function audit(o: {
  world: World
  servers: string[]
  rec: Recorder
  say: (s: string) => void
  /** Where each server's board is written when they differ. */
  out?: string
}): Promise<Audit> {
  const { world, rec } = o
  const g = world.gameId
  const problems: string[] = []
  const note = (s: string) => {
    if (problems.length < 200) problems.push(s)
  }
  // 1. Every acknowledged submission's status by its id, asked again as its team (16 at a time;
  // one still pending is asked again for up to a minute).
  const teamByName = new Map(world.teams.map((t) => [t.name, t]))
  const deadline = Date.now() + 60_000
  let unjudged = 0
  let missingById = 0
  let next = 0
  const check = async (a: World['acked'][number]) => {
    for (;;) {
      const team = teamByName.get(a.team)!
      const r = await team.session.request(
        'audit',
        'GET',
        `/api/game/${g}/challenges/${a.cid}/status/${a.id}`,
      )
      const v = r.status === 200 ? team.session.json<string>(r) : null
      if (v && v !== 'FlagSubmitted') {
        if (a.verdict && a.verdict !== v) note(`submission ${a.id}: status was ${a.verdict}, now ${v}`)
        a.verdict = v
        break
      }
      if (r.status === 404) {
        // Its id is unknown to the server: the acknowledged submission is gone.
        missingById++
        a.verdict = null
        note(`submission ${a.id} (${a.team}, ${a.challenge}) is not found by its id`)
        break
      }
      if (Date.now() > deadline) {
        unjudged++
        note(`submission ${a.id} (${a.team}, ${a.challenge}) still ${v ?? `HTTP ${r.status}`} after the run`)
        break
      }
      await sleep(500)
    }
  }
  await Promise.all(
    Array.from({ length: 16 }, async () => {
      while (next < world.acked.length) await check(world.acked[next++]!)
    }),
  )

  // 2. The stored submissions, as the monitor sees them.
  const admin = new Session(o.servers[0]!, rec, 120_000)
  admin.cookies = new Map(world.admin.cookies)
  const list = await admin.request('audit', 'GET', `/api/game/${g}/submissions?count=0`)
  if (list.status !== 200)
    throw new Error(`audit: the submission list answered ${list.status} ${list.text.slice(0, 200)}`)
  const stored = admin.json<Stored[]>(list)!
  const key = (team: string, challenge: string, flag: string) => `${team}\n${challenge}\n${flag}`
  const storedBy = new Map<string, Stored[]>()
  for (const s of stored) {
    const k = key(s.team, s.challenge, s.answer)
    const list = storedBy.get(k)
    if (list) list.push(s)
    else storedBy.set(k, [s])
  }
  const ackedBy = new Map<string, number>()
  const ids = new Map<number, number>()
  for (const a of world.acked) {
    const k = key(a.team, a.challenge, a.flag)
    ackedBy.set(k, (ackedBy.get(k) ?? 0) + 1)
    ids.set(a.id, (ids.get(a.id) ?? 0) + 1)
  }
  const unackedBy = new Map<string, number>()
  for (const u of world.unacked) {
    const k = key(u.team, u.challenge, u.flag)
    unackedBy.set(k, (unackedBy.get(k) ?? 0) + 1)
  }
  let lost = 0
  let duplicates = 0
  let misjudged = 0
  for (const [id, n] of ids)
    if (n > 1) {
      duplicates += n - 1
      note(`id ${id} acknowledged ${n} times`)
    }
  for (const [k, n] of ackedBy) {
    const have = storedBy.get(k)?.length ?? 0
    const allowed = n + (unackedBy.get(k) ?? 0)
    if (have < n) {
      lost += n - have
      note(`lost: ${k.replaceAll('\n', ' / ')} acknowledged ${n}×, stored ${have}×`)
    } else if (have > allowed) {
      duplicates += have - allowed
      note(`duplicate: ${k.replaceAll('\n', ' / ')} sent ${allowed}×, stored ${have}×`)
    }
  }
  for (const a of world.acked) {
    const expected = a.right ? 'Accepted' : 'WrongAnswer'
    if (a.verdict && a.verdict !== 'FlagSubmitted' && a.verdict !== expected) {
      misjudged++
      note(
        `misjudged: submission ${a.id} (${a.team}, ${a.challenge}, ${a.right ? 'right' : 'wrong'} flag) is ${a.verdict}`,
      )
      continue
    }
    const rows = storedBy.get(key(a.team, a.challenge, a.flag)) ?? []
    const bad = rows.find((r) => r.status !== expected)
    if (bad) {
      misjudged++
      note(`misjudged in the monitor list: ${a.team}, ${a.challenge}, ${a.flag}: ${bad.status}`)
    }
  }

  // 3. Boards: the same JSON everywhere, then bloods and solved sets against the submissions.
  // The board is rebuilt after the last verdicts: checked again (up to ~12 s) until it agrees.
  const accepted = stored.filter((s) => s.status === 'Accepted').sort((a, b) => a.time - b.time)
  const noticesOf = async () => {
    const pages = []
    for (const skip of [0, 100, 200])
      pages.push(await admin.request('audit', 'GET', `/api/game/${g}/notices?count=100&skip=${skip}`))
    return pages.flatMap((r) => admin.json<{ type: string; values: string[] }[]>(r) ?? [])
  }
  const checkBoards = async () => {
    const local: string[] = []
    const texts: string[] = []
    const tags: string[] = []
    for (const base of o.servers) {
      const s = new Session(base, rec, 120_000)
      const r = await s.request('audit', 'GET', `/api/game/${g}/scoreboard`)
      // Each server stamps the board with its own build time (`updateTimeUtc`, the first
      // field); the rest, and the ETag, must be the same everywhere.
      texts.push(r.status === 200 ? r.text.replace(/^\{"updateTimeUtc":\d+,/, '{') : `HTTP ${r.status}`)
      tags.push(String(r.headers.etag))
    }
    if (tags.some((t) => t !== tags[0]))
      local.push(`the scoreboard's ETag differs between servers: ${tags.join(', ')}`)
    const boardsEqual = texts.every((t) => t === texts[0]) && tags.every((t) => t === tags[0])
    if (!boardsEqual) {
      // Where they part, for a look (and each server's board in full next to the report).
      const other = texts.find((t) => t !== texts[0])!
      let at = 0
      while (at < other.length && other[at] === texts[0]![at]) at++
      const around = (t: string) => t.slice(Math.max(0, at - 80), at + 80)
      local.push(
        `the scoreboard differs between servers (${texts.map((t) => t.length).join(', ')} bytes), from byte ${at}: ${around(texts[0]!)} ≠ ${around(other)}`,
      )
      if (o.out)
        for (const [i, t] of texts.entries()) writeFileSync(path.join(o.out, `board-${i + 1}.json`), t)
    }
    let board: Board
    try {
      board = JSON.parse(texts[0]!) as Board
    } catch {
      local.push(`the scoreboard did not answer: ${texts[0]!.slice(0, 100)}`)
      return { boardsEqual, bloodErrors: 1, boardMismatches: 0, local }
    }
    const firstSolve = new Map<string, Map<string, number>>()
    for (const s of accepted) {
      const m = firstSolve.get(s.challenge) ?? new Map<string, number>()
      if (!m.has(s.team)) m.set(s.team, s.time)
      firstSolve.set(s.challenge, m)
    }
    let bloodErrors = 0
    const bloodTypes = ['FirstBlood', 'SecondBlood', 'ThirdBlood']
    const noticeList = await noticesOf()
    for (const c of world.challenges) {
      if (!c.enabled) continue
      const solvers = [...(firstSolve.get(c.title) ?? new Map()).entries()].sort((a, b) => a[1] - b[1])
      const want = Math.min(3, solvers.length)
      const info = Object.values(board.challenges)
        .flat()
        .find((x) => x.id === c.id)
      const bloods = info?.bloods ?? []
      if (bloods.length !== want || new Set(bloods.map((b) => b.id)).size !== bloods.length) {
        bloodErrors++
        local.push(
          `${c.title}: ${bloods.length} bloods on the board (${bloods.map((b) => b.name).join(', ')}), ${want} expected`,
        )
      } else
        for (let i = 0; i < want; i++) {
          // Solves stored in the same millisecond may be taken in either order.
          const blood = bloods[i]!.name
          const at = solvers.find(([team]) => team === blood)?.[1]
          if (blood !== solvers[i]![0] && at !== solvers[i]![1]) {
            bloodErrors++
            const t0 = solvers[0]![1]
            const order = solvers
              .slice(0, 5)
              .map(([team, t]) => `${team} +${t - t0} ms`)
              .join(', ')
            local.push(
              `${c.title}: blood ${i + 1} is ${blood} (solved +${at === undefined ? '?' : at - t0} ms); first solvers by stored time: ${order}`,
            )
          }
        }
      for (let i = 0; i < 3; i++) {
        const type = bloodTypes[i]!
        const onBoard = board.items.filter((t) =>
          t.solvedChallenges.some((x) => x.id === c.id && x.type === type),
        ).length
        const notices = noticeList.filter((n) => n.type === type && n.values[1] === c.title)
        const asNotice = notices.length
        const expected = i < want ? 1 : 0
        if (onBoard !== expected || asNotice !== expected) {
          bloodErrors++
          local.push(
            `${c.title}: ${type} ${onBoard}× on the board, ${asNotice}× as a notice, ${expected} expected`,
          )
        } else if (expected && bloods.length === want && notices[0]!.values[0] !== bloods[i]!.name) {
          // The notice must name the team the board gives the blood to.
          bloodErrors++
          local.push(
            `${c.title}: the ${type} notice names ${notices[0]!.values[0]}, the board ${bloods[i]!.name}`,
          )
        }
      }
    }
    let boardMismatches = 0
    const enabledIds = new Set(world.challenges.filter((c) => c.enabled).map((c) => c.id))
    const idByTitle = new Map(world.challenges.map((c) => [c.title, c.id]))
    for (const team of world.teams) {
      const fromSubmissions = new Set(
        accepted
          .filter((s) => s.team === team.name)
          .map((s) => idByTitle.get(s.challenge)!)
          .filter((id) => enabledIds.has(id)),
      )
      const item = board.items.find((x) => x.id === team.id)
      const onBoard = new Set((item?.solvedChallenges ?? []).map((x) => x.id))
      const same =
        onBoard.size === fromSubmissions.size && [...onBoard].every((id) => fromSubmissions.has(id))
      if (!same) {
        boardMismatches++
        local.push(
          `${team.name}: board shows ${[...onBoard].join(',') || 'nothing'}, accepted submissions ${[...fromSubmissions].join(',') || 'none'}`,
        )
      }
    }
    return { boardsEqual, bloodErrors, boardMismatches, local }
  }
  let boards = await checkBoards()
  for (let i = 0; i < 6 && (boards.local.length || !boards.boardsEqual); i++) {
    await sleep(2000)
    boards = await checkBoards()
  }
  for (const p of boards.local) note(p)
  const { boardsEqual, bloodErrors, boardMismatches } = boards
  return {
    acknowledged: world.acked.length,
    lost: Math.max(lost, missingById),
    duplicates,
    misjudged,
    unjudged,
    bloodErrors,
    boardMismatches,
    boardsEqual,
    problems,
  }
}
