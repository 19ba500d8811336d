import { randomBytes } from 'node:crypto'
import { and, eq, lt } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { challenges, participations, submissions, teams, users } from '../../db/schema.ts'
import { LiveBoard } from '../../engine/live-board.ts'
import type { BoardInput, BoardSolve } from '../../engine/scoreboard.ts'
import { type Coding, compress } from '../../http/compression.ts'
import { ChallengeCategoryValues, nameOf } from '../../http/enums.ts'
import type { Bus } from '../../infra/bus/index.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import { requireGame } from './games.queries.ts'

export interface BoardEntry {
  /** The board kept up to date solve by solve (one team's line, the challenge list). */
  live: LiveBoard
  /** The board serialised once; every read sends these bytes. */
  bytes: Buffer
  etag: string
  updatedAt: Date
  /** The game is hidden: only admins may read the board (decisions.md item 9). */
  hidden: boolean
  /**
   * Call before sending `bytes`, and the returned function once the response is done: the
   * buffer of a big board is reused by a later rebuild only when no response still sends it.
   */
  retain(): () => void
  /**
   * The board compressed for `coding`: made once per version, off the event loop, and shared by
   * every reader (the first one waits for it; later versions are compressed as soon as they are
   * built, for each coding asked for before).
   */
  encoded(coding: Coding): Promise<Buffer>
}

/**
 * Brotli quality for boards: compressed once per version and sent to every reader, so it pays
 * to spend more than per-response compression does, while a 6 000-team board (5.6 MiB) still
 * takes well under the rebuild window (measured by `npm run bench:bytes`).
 */
const BOARD_BROTLI_QUALITY = 5

/** A buffer big boards are written into, and the responses still sending it. */
interface Slab {
  buf: Buffer
  readers: number
  /** Holds the bytes of the game's current entry. */
  current: boolean
}
/** Boards from this size on are written into reused buffers (a few per game). */
const SLAB_MIN = 1 << 20
const SLABS_PER_GAME = 3
const noRelease = () => {}

interface GameState {
  live: LiveBoard
  entry: BoardEntry
  slabs: Slab[]
  /** A rebuild is scheduled (bursts of solves coalesce into it). */
  timer: NodeJS.Timeout | null
  /** Something other than a solve changed: reload the inputs from the database. */
  stale: boolean
  /** Built before the game started (empty): reload once it has. */
  startsAt: number | null
  /** Codings readers have asked for: each new version is compressed for them when built. */
  codings: Set<Coding>
}

/**
 * Scoreboards built once per change and kept in memory as bytes with an ETag, so reads never
 * run SQL. A judged solve is added to the in-memory inputs; other changes (challenge edits,
 * reviews) mark the game stale and the next rebuild reloads it. Rebuilds coalesce: every change
 * within `delayMs` of the first one is covered by a single rebuild.
 */
export function createScoreboardService(deps: {
  db: Db
  delayMs?: number
  slabMinBytes?: number
  /** Hears each new board's tag (the user hub tells players to fetch it). */
  bus?: Bus
  /** Hears how long each rebuild took, in seconds of wall time (`/metrics`). */
  observe?: (kind: 'full' | 'incremental', seconds: number) => void
}) {
  const { db } = deps
  const delayMs = deps.delayMs ?? 150
  const slabMin = deps.slabMinBytes ?? SLAB_MIN
  const games = new Map<number, GameState>()
  const loading = new Map<number, Promise<GameState>>()

  async function loadInput(
    gameId: number,
  ): Promise<BoardInput & { startsAt: number | null; hidden: boolean }> {
    const game = await requireGame(db, gameId)
    const now = Date.now()
    const base = {
      bloodBonus: game.bloodBonus,
      endTime: game.endTimeUtc.getTime(),
      now,
      startsAt: null,
      hidden: game.hidden,
    }
    // Before the start the board is empty (decisions.md item 9).
    if (now < game.startTimeUtc.getTime()) {
      return { ...base, startsAt: game.startTimeUtc.getTime(), teams: [], challenges: [], solves: [] }
    }
    const [teamRows, challengeRows, solveRows] = await Promise.all([
      db
        .select({ p: participations, team: teams })
        .from(participations)
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .where(and(eq(participations.gameId, gameId), eq(participations.status, 1)))
        .orderBy(participations.id),
      db
        .select()
        .from(challenges)
        .where(and(eq(challenges.gameId, gameId), eq(challenges.isEnabled, true))),
      db
        .select({
          challengeId: submissions.challengeId,
          participationId: submissions.participationId,
          userName: users.userName,
          time: submissions.submitTimeUtc,
        })
        .from(submissions)
        .leftJoin(users, eq(users.id, submissions.userId))
        .where(
          and(
            eq(submissions.gameId, gameId),
            eq(submissions.status, 'Accepted'),
            lt(submissions.submitTimeUtc, game.endTimeUtc),
          ),
        ),
    ])
    return {
      ...base,
      teams: teamRows.map(({ p, team }) => ({
        id: team.id,
        participationId: p.id,
        name: team.name,
        bio: team.bio,
        avatar: avatarUrl(team.avatarHash),
        division: p.division,
      })),
      challenges: challengeRows.map((c) => ({
        id: c.id,
        title: c.title,
        category: nameOf(ChallengeCategoryValues, c.category),
        categoryOrder: c.category,
        originalScore: c.originalScore,
        minScoreRate: c.minScoreRate,
        difficulty: c.difficulty,
        acceptedCount: c.acceptedCount,
        disableBloodBonus: c.disableBloodBonus,
      })),
      solves: solveRows.map((s) => ({ ...s, time: s.time.getTime() })),
    }
  }

  /** Tags stay unique across restarts and replicas: a random epoch plus a counter. */
  const epoch = randomBytes(4).toString('hex')
  let version = 0
  /**
   * What the last rebuild cost in CPU time (wall time would count the moments the machine gave
   * to other processes): the coalescing window grows with it (see `schedule`).
   */
  let lastRenderMs = 0

  /**
   * A buffer for a board of `size` bytes. Big boards reuse a buffer that no response is sending
   * and that does not hold the current board: allocating megabytes of fresh external memory at
   * every rebuild made V8 run full garbage collections, a cost that grew with the board.
   */
  function take(slabs: Slab[], size: number): { buf: Buffer; slab: Slab | null } {
    if (size < slabMin) return { buf: Buffer.allocUnsafe(size), slab: null }
    const free = (x: Slab) => x.readers === 0 && !x.current
    let slab = slabs.find((x) => free(x) && x.buf.length >= size)
    if (!slab) {
      slab = { buf: Buffer.allocUnsafeSlow(Math.ceil(size * 1.25)), readers: 0, current: false }
      const spare = slabs.findIndex(free)
      if (spare >= 0) slabs[spare] = slab
      else if (slabs.length < SLABS_PER_GAME) slabs.push(slab)
    }
    return { buf: slab.buf, slab }
  }

  /** Renders the board; `full` for a first render, whose cost says nothing of the next ones. */
  function render(
    gameId: number,
    live: LiveBoard,
    hidden: boolean,
    slabs: Slab[],
    codings: Set<Coding>,
    full = false,
  ): BoardEntry {
    const started = process.cpuUsage()
    const now = Date.now()
    let slab: Slab | null = null
    const bytes = live.toBytes(now, (size) => {
      const taken = take(slabs, size)
      slab = taken.slab
      return taken.buf
    })
    for (const x of slabs) x.current = x === slab
    // A version, not a hash of megabytes: unique per render of this process.
    const etag = `${gameId}-${epoch}-${++version}`
    deps.bus?.publish('board.changed', { gameId, etag })
    const spent = process.cpuUsage(started)
    if (!full) lastRenderMs = (spent.user + spent.system) / 1000
    const held = slab as Slab | null
    const retain = held
      ? () => {
          held.readers++
          let released = false
          return () => {
            if (released) return
            released = true
            held.readers--
          }
        }
      : () => noRelease
    const encodings = new Map<Coding, Promise<Buffer>>()
    const encoded = (coding: Coding) => {
      let done = encodings.get(coding)
      if (!done) {
        codings.add(coding)
        // The compressor reads the buffer on the thread pool: keep it out of reuse until then.
        const release = retain()
        done = compress(bytes, coding, BOARD_BROTLI_QUALITY).finally(release)
        encodings.set(coding, done)
        // A failure is not kept: the next reader tries again.
        done.catch(() => encodings.delete(coding))
      }
      return done
    }
    // Readers asked for compressed boards before: have this version ready when they come back.
    for (const coding of codings) encoded(coding).catch(() => {})
    return { live, bytes, etag, updatedAt: new Date(now), hidden, retain, encoded }
  }

  /**
   * Solves judged while a game's board is being (re)loaded: the load's query may have run
   * before they were committed, so they are added again to the loaded board (the board
   * ignores a solve it already has).
   */
  const arriving = new Map<number, { solve: BoardSolve; acceptedCount: number }[]>()

  async function load(gameId: number): Promise<GameState> {
    const started = performance.now()
    const mine = arriving.get(gameId) ?? []
    arriving.set(gameId, mine)
    let loaded: Awaited<ReturnType<typeof loadInput>>
    try {
      loaded = await loadInput(gameId)
    } finally {
      if (arriving.get(gameId) === mine) arriving.delete(gameId)
    }
    const { startsAt, hidden, ...input } = loaded
    const live = LiveBoard.from(input)
    for (const { solve, acceptedCount } of mine) live.addSolve(solve, acceptedCount)
    const previous = games.get(gameId)
    const slabs = previous?.slabs ?? []
    const codings = previous?.codings ?? new Set<Coding>()
    const state: GameState = {
      live,
      slabs,
      codings,
      entry: render(gameId, live, hidden, slabs, codings, true),
      timer: null,
      stale: false,
      startsAt,
    }
    games.set(gameId, state)
    deps.observe?.('full', (performance.now() - started) / 1000)
    return state
  }

  function schedule(gameId: number, state: GameState) {
    if (state.timer) return
    // Rebuilds cost time in proportion to the whole board: waiting five times as long as the
    // last one took keeps them to a sixth of the event loop whatever the number of solves (so
    // the cost per solve stays flat), and a solve still shows within a second.
    const wait = Math.min(800, Math.max(delayMs, lastRenderMs * 5))
    state.timer = setTimeout(() => {
      state.timer = null
      const started = performance.now()
      const rebuild = state.stale
        ? load(gameId)
        : Promise.resolve(
            Object.assign(state, {
              entry: render(gameId, state.live, state.entry.hidden, state.slabs, state.codings),
            }),
          ).then((s) => {
            deps.observe?.('incremental', (performance.now() - started) / 1000)
            return s
          })
      state.stale = false
      rebuild.catch(() => games.delete(gameId))
    }, wait)
    state.timer.unref()
  }

  return {
    /** The current board of a game (built on first use). */
    async get(gameId: number): Promise<BoardEntry> {
      const ready = games.get(gameId)
      if (ready && !(ready.startsAt !== null && Date.now() >= ready.startsAt)) return ready.entry
      let pending = loading.get(gameId)
      if (!pending) {
        pending = load(gameId).finally(() => loading.delete(gameId))
        loading.set(gameId, pending)
      }
      return (await pending).entry
    },

    /** A judged solve: counted in memory, shown after the next (coalesced) rebuild. */
    addSolve(gameId: number, solve: BoardSolve, acceptedCount: number) {
      arriving.get(gameId)?.push({ solve, acceptedCount })
      const state = games.get(gameId)
      if (!state) return
      state.live.addSolve(solve, acceptedCount)
      schedule(gameId, state)
    },

    /** Anything else changed: reload from the database at the next rebuild. */
    invalidate(gameId: number) {
      const state = games.get(gameId)
      if (!state) return
      state.stale = true
      schedule(gameId, state)
    },

    /** Every cached board reloads at its next rebuild (e.g. after a team was deleted). */
    invalidateAll() {
      for (const [gameId, state] of games) {
        state.stale = true
        schedule(gameId, state)
      }
    },

    /** Drops a game's board; the next read builds it afresh (game edits: visibility, times). */
    forget(gameId: number) {
      const state = games.get(gameId)
      if (state?.timer) clearTimeout(state.timer)
      games.delete(gameId)
    },

    close() {
      for (const s of games.values()) if (s.timer) clearTimeout(s.timer)
      games.clear()
    },
  }
}
export type ScoreboardService = ReturnType<typeof createScoreboardService>
