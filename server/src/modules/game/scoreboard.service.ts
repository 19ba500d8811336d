import { createHash } from 'node:crypto'
import { and, desc, eq, gt, lte, sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { challenges, games as gameRows, participations, submissions, teams, users } from '../../db/schema.ts'
import { frozenSince, seesThroughFreeze } from '../../engine/freeze.ts'
import { LiveBoard } from '../../engine/live-board.ts'
import type { BoardInput, BoardSolve } from '../../engine/scoreboard.ts'
import { type Coding, compress } from '../../http/compression.ts'
import { hashTag } from '../../http/conditional.ts'
import { ChallengeCategoryValues, nameOf } from '../../http/enums.ts'
import type { SessionUser } from '../../http/types.ts'
import type { Bus } from '../../infra/bus/index.ts'
import type { Clock, ClockTimer } from '../../infra/clock/index.ts'
import { phaseOf, requireGame } from '../contest/games.queries.ts'
import { avatarUrl } from '../posts/posts.service.ts'
import type { BoardShare } from './board-share.ts'

/** Boards loaded at start-up: games running at once beyond this many load at their first read. */
const WARM_GAMES = 3

/** One solve as the board's load reads it: challenge, participation, player, epoch ms, id. */
type SolveTuple = [number, number, string | null, number, number]

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
   * every reader (the first one waits for it; the next version is compressed as soon as it is
   * built for each coding a reader asked for since the version before it was built).
   */
  encoded(coding: Coding): Promise<Buffer>
}

/**
 * Brotli quality for boards: compressed once per version and sent to every reader, so it pays
 * to spend more than per-response compression does, while a 6 000-team board (5.6 MiB) still
 * takes well under the rebuild window (measured by `npm run bench:bytes`).
 */
const BOARD_BROTLI_QUALITY = 5
/** Each coding readers asked for, and when they last did (epoch ms). */
type Codings = Map<Coding, number>

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
  timer: ClockTimer | null
  /** Something other than a solve changed: reload the inputs from the database. */
  stale: boolean
  /**
   * Reload from this instant: the game starts (the board was built empty before it), or a
   * scheduled challenge opens. Every server reaches it on its own clock, with no message needed.
   */
  reloadAt: number | null
  /** Whether scheduled release was on when this board was loaded (switching it reloads). */
  scheduled: boolean
  /** Codings readers have asked for, and when last: see `render`. */
  codings: Codings
  /** The game's freeze settings (epoch ms), as last loaded. */
  freezeAt: number | null
  revealAt: number | null
  /** The board as it stood at the freeze (built on first use while frozen). */
  frozen: Promise<BoardEntry> | null
  /** The frozen board's tag last told on the bus: a rebuild to the same bytes is not told again. */
  toldFrozen: string | null
  /**
   * Another server holds the turn to render (`share`): the solve count its board must reach,
   * and the render of our own that follows if none does in time.
   */
  awaiting: number | null
  fallback: NodeJS.Timeout | null
  /** How many solves the served board shows (a board from another server replaces it if more). */
  shown: number
}

/**
 * How long a server waits for the board the render turn's holder hands over before rendering
 * its own (the holder died, or Redis lost the bytes): a solve still shows within about a second.
 */
const FALLBACK_MS = 1000

/**
 * A board's tag: a hash of its bytes after `updateTimeUtc` (the one field that differs between
 * servers, and between two renders of the same board). So every server behind a load balancer
 * names the same board alike and a client's `If-None-Match` from one server answers 304 on
 * another; a restarted server too. One pass over the bytes, once per version (about 7 ms for
 * a 5.6 MiB board of 6 000 teams).
 */
export function boardTag(gameId: number, bytes: Buffer): string {
  // The board begins `{"updateTimeUtc":<digits>,`: the first comma ends the field.
  const rest = bytes.subarray(Math.max(0, bytes.indexOf(0x2c)))
  return `${gameId}-${createHash('sha256').update(rest).digest('base64url').slice(0, 16)}`
}

/** What one reader gets: the board they may see, and since when it is frozen for players. */
export interface BoardView {
  entry: BoardEntry
  /** Epoch ms the public board stands still at; null when it is not frozen. */
  frozenSince: number | null
  /** The board is the frozen one (the reader is a player or anonymous). */
  frozen: boolean
}

/**
 * Scoreboards built once per change and kept in memory as bytes with an ETag, so reads never
 * run SQL. A judged solve is added to the in-memory inputs; other changes (challenge edits,
 * reviews) mark the game stale and the next rebuild reloads it. Rebuilds coalesce: every change
 * within `delayMs` of the first one is covered by a single rebuild.
 */
export function createScoreboardService(deps: {
  db: Db
  /** The game's phase, the freeze, the board's time, and when a coalesced rebuild runs. */
  clock: Clock
  delayMs?: number
  slabMinBytes?: number
  /** Hears each new board's tag (the user hub tells players to fetch it). */
  bus?: Bus
  /** Whether the `freeze` switch is on (off: freeze times are ignored). */
  freezeOn?: () => boolean
  /** Whether scheduled release is on: challenges before their `openAt` are left off the board. */
  scheduled?: () => boolean
  /** Hears how long each rebuild took, in seconds of wall time (`/metrics`). */
  observe?: (kind: 'full' | 'incremental', seconds: number) => void
  /** Several servers: one renders each board after solves and the others take its bytes. */
  share?: BoardShare
}) {
  const { db } = deps
  const delayMs = deps.delayMs ?? 150
  const slabMin = deps.slabMinBytes ?? SLAB_MIN
  const games = new Map<number, GameState>()
  const loading = new Map<number, Promise<GameState>>()

  const freezeOn = deps.freezeOn ?? (() => false)
  const since = (s: { freezeAt: number | null; revealAt: number | null }) =>
    frozenSince(
      {
        freezeAt: s.freezeAt === null ? null : new Date(s.freezeAt),
        revealAt: s.revealAt === null ? null : new Date(s.revealAt),
      },
      freezeOn(),
      deps.clock.now(),
    )

  /**
   * A game's board inputs; with `cutoff`, as they stood then (the frozen board): only solves
   * before it, and each challenge's solve count recounted from them, so dynamic scores are
   * those of that moment too.
   */
  async function loadInput(
    gameId: number,
    cutoff?: number,
  ): Promise<
    BoardInput & {
      reloadAt: number | null
      hidden: boolean
      scheduled: boolean
      freezeAt: number | null
      revealAt: number | null
    }
  > {
    const game = await requireGame(db, gameId)
    const now = deps.clock.now()
    const scheduled = deps.scheduled?.() ?? false
    const base = {
      bloodBonus: game.bloodBonus,
      endTime: cutoff === undefined ? game.endTimeUtc.getTime() : Math.min(cutoff, game.endTimeUtc.getTime()),
      now,
      reloadAt: null,
      hidden: game.hidden,
      scheduled,
      freezeAt: game.freezeAt?.getTime() ?? null,
      revealAt: game.revealAt?.getTime() ?? null,
    }
    // Before the start the board is empty (decisions.md item 9).
    if (phaseOf(game, now) === 'upcoming') {
      return { ...base, reloadAt: game.startTimeUtc.getTime(), teams: [], challenges: [], solves: [] }
    }
    const [teamRows, enabledRows, solveResult] = await Promise.all([
      db
        .select({
          id: teams.id,
          participationId: participations.id,
          name: teams.name,
          bio: teams.bio,
          avatarHash: teams.avatarHash,
          division: participations.division,
        })
        .from(participations)
        .innerJoin(teams, eq(teams.id, participations.teamId))
        .where(and(eq(participations.gameId, gameId), eq(participations.status, 1)))
        .orderBy(participations.id),
      db
        .select()
        .from(challenges)
        .where(and(eq(challenges.gameId, gameId), eq(challenges.isEnabled, true))),
      // The solves as one JSON text of [challenge, participation, player, epoch ms, id] rows: a
      // board of 6 000 teams loads ~60 000 at start-up, and parsing them row by row (each time a
      // Date, each row an object twice over) cost several times what JSON.parse does.
      // Equal times in id order (the boards' sorts are stable), as the judge counted bloods.
      db.execute(sql`
        select coalesce(json_agg(json_build_array(s.challenge_id, s.participation_id, u.user_name,
                 floor(extract(epoch from s.submit_time_utc) * 1000)::bigint, s.id)
                 order by s.submit_time_utc, s.id), '[]')::text solves
        from ${submissions} s left join ${users} u on u.id = s.user_id
        where s.game_id = ${gameId} and s.status = 'Accepted'
          and s.submit_time_utc < ${new Date(base.endTime).toISOString()}::timestamptz`),
    ])
    const solveRows: BoardSolve[] = (
      JSON.parse((solveResult as unknown as { rows: { solves: string }[] }).rows[0]!.solves) as SolveTuple[]
    ).map(([challengeId, participationId, userName, time, id]) => ({
      challengeId,
      participationId,
      userName,
      time,
      id,
    }))
    // Scheduled release: a challenge is not on the board (nor in the teams' lists) before it opens.
    const opensLater = (c: (typeof enabledRows)[number]) =>
      scheduled && c.openAt !== null && c.openAt.getTime() > now
    const challengeRows = enabledRows.filter((c) => !opensLater(c))
    const nextOpen = enabledRows
      .filter(opensLater)
      .reduce<number | null>((min, c) => Math.min(min ?? Number.POSITIVE_INFINITY, c.openAt!.getTime()), null)
    let counts: Map<number, number> | null = null
    if (cutoff !== undefined) {
      const solvers = new Map<number, Set<number>>()
      for (const s of solveRows) {
        const set = solvers.get(s.challengeId) ?? new Set<number>()
        solvers.set(s.challengeId, set)
        set.add(s.participationId)
      }
      counts = new Map([...solvers].map(([id, set]) => [id, set.size]))
    }
    return {
      ...base,
      reloadAt: nextOpen,
      teams: teamRows.map(({ avatarHash, ...team }) => ({ ...team, avatar: avatarUrl(avatarHash) })),
      challenges: challengeRows.map((c) => ({
        id: c.id,
        title: c.title,
        category: nameOf(ChallengeCategoryValues, c.category),
        categoryOrder: c.category,
        originalScore: c.originalScore,
        minScoreRate: c.minScoreRate,
        difficulty: c.difficulty,
        acceptedCount: counts ? (counts.get(c.id) ?? 0) : c.acceptedCount,
        disableBloodBonus: c.disableBloodBonus,
      })),
      solves: solveRows,
    }
  }

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
    codings: Codings,
    full = false,
    /** Tell the bus (not while the game is frozen: players would learn the board moved). */
    announce = true,
    /** The board this one replaces: the bus is not told of the same board again. */
    previous?: BoardEntry,
  ): BoardEntry {
    const started = process.cpuUsage()
    const now = deps.clock.now()
    let slab: Slab | null = null
    const bytes = live.toBytes(now, (size) => {
      const taken = take(slabs, size)
      slab = taken.slab
      return taken.buf
    })
    for (const x of slabs) x.current = x === slab
    const etag = boardTag(gameId, bytes)
    if (announce && etag !== previous?.etag) deps.bus?.publish('board.changed', { gameId, etag })
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
    const encoded = encoder(bytes, codings, retain)
    precompress(encoded, codings, previous)
    return { live, bytes, etag, updatedAt: new Date(now), hidden, retain, encoded }
  }

  /**
   * Readers read the version this one replaces compressed: have this one ready when they come
   * back. Only then: readers who come every few seconds while solves rebuild the board several
   * times a second read few of its versions, and compressing each one (megabytes at thousands
   * of teams) would be CPU spent per solve, growing with the number of teams. A version nobody
   * read ahead is compressed by its first reader, as before any read.
   */
  function precompress(
    encoded: (coding: Coding, ahead: boolean) => Promise<Buffer>,
    codings: Codings,
    previous: BoardEntry | undefined,
  ) {
    const since = previous?.updatedAt.getTime() ?? Number.POSITIVE_INFINITY
    for (const [coding, asked] of codings) if (asked >= since) encoded(coding, true).catch(() => {})
  }

  function encoder(bytes: Buffer, codings: Codings, retain: () => () => void) {
    const encodings = new Map<Coding, Promise<Buffer>>()
    /** `ahead`: compressed before anyone asked, which is not a reader's ask. */
    return (coding: Coding, ahead = false) => {
      if (!ahead) codings.set(coding, deps.clock.now())
      let done = encodings.get(coding)
      if (!done) {
        // The compressor reads the buffer on the thread pool: keep it out of reuse until then.
        const release = retain()
        done = compress(bytes, coding, BOARD_BROTLI_QUALITY).finally(release)
        encodings.set(coding, done)
        // A failure is not kept: the next reader tries again.
        done.catch(() => encodings.delete(coding))
      }
      return done
    }
  }

  /**
   * The board as it stood at `at`, read from the database (solves before `at` only). Its tag is
   * a hash of its bytes and its time is the freeze time, so neither moves with later solves; it
   * is rebuilt only when the game's other inputs change (challenge edits, reviews), and the bus
   * hears its tag only when the bytes differ from the last ones told.
   */
  async function buildFrozen(gameId: number, state: GameState, at: number): Promise<BoardEntry> {
    const {
      reloadAt: _l,
      scheduled: _s,
      hidden,
      freezeAt: _f,
      revealAt: _r,
      ...input
    } = await loadInput(gameId, at)
    const live = LiveBoard.from(input)
    const bytes = live.toBytes(at)
    const etag = `${gameId}-frozen-${hashTag(bytes.toString('latin1'))}`
    const codings = new Map<Coding, number>()
    const entry: BoardEntry = {
      live,
      bytes,
      etag,
      updatedAt: new Date(at),
      hidden,
      retain: () => noRelease,
      encoded: encoder(bytes, codings, () => noRelease),
    }
    if (state.toldFrozen !== etag && games.get(gameId) === state) {
      state.toldFrozen = etag
      deps.bus?.publish('board.changed', { gameId, etag })
    }
    return entry
  }

  function frozenOf(gameId: number, state: GameState, at: number): Promise<BoardEntry> {
    if (!state.frozen) {
      const pending = buildFrozen(gameId, state, at)
      state.frozen = pending
      // A failed build is not kept: the next reader tries again.
      pending.catch(() => {
        if (state.frozen === pending) state.frozen = null
      })
    }
    return state.frozen
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
    const { reloadAt, scheduled, hidden, freezeAt, revealAt, ...input } = loaded
    const live = LiveBoard.from(input)
    for (const { solve, acceptedCount } of mine) live.addSolve(solve, acceptedCount)
    const previous = games.get(gameId)
    const slabs = previous?.slabs ?? []
    const codings = previous?.codings ?? new Map<Coding, number>()
    const at = since({ freezeAt, revealAt })
    const state: GameState = {
      live,
      slabs,
      codings,
      entry: render(gameId, live, hidden, slabs, codings, true, at === null, previous?.entry),
      timer: null,
      stale: false,
      reloadAt,
      scheduled,
      freezeAt,
      revealAt,
      frozen: null,
      toldFrozen: at === null ? null : (previous?.toldFrozen ?? null),
      awaiting: null,
      fallback: null,
      shown: live.solveCount,
    }
    if (previous?.fallback) clearTimeout(previous.fallback)
    games.set(gameId, state)
    // Frozen: players are told of the frozen board (once, and only if it changed).
    if (at !== null) frozenOf(gameId, state, at).catch(() => {})
    deps.observe?.('full', (performance.now() - started) / 1000)
    return state
  }

  /** A rebuild after solves; while frozen the bus hears of the frozen board instead. */
  function rerender(gameId: number, state: GameState) {
    const at = since(state)
    state.entry = render(
      gameId,
      state.live,
      state.entry.hidden,
      state.slabs,
      state.codings,
      false,
      at === null,
      state.entry,
    )
    state.shown = state.live.solveCount
    if (at !== null) frozenOf(gameId, state, at).catch(() => {})
    else if (deps.share) {
      // The other servers take these bytes instead of rendering the same board.
      const { entry } = state
      deps.share.publish({
        gameId,
        etag: entry.etag,
        at: entry.updatedAt.getTime(),
        solves: state.live.solveCount,
        bytes: entry.bytes,
      })
    }
    stopWaiting(state)
    return state
  }

  function stopWaiting(state: GameState) {
    if (state.fallback) clearTimeout(state.fallback)
    state.fallback = null
    state.awaiting = null
  }

  function rebuild(gameId: number, state: GameState) {
    const started = performance.now()
    const done = state.stale
      ? load(gameId)
      : Promise.resolve(rerender(gameId, state)).then((s) => {
          deps.observe?.('incremental', (performance.now() - started) / 1000)
          return s
        })
    state.stale = false
    done.catch(() => games.delete(gameId))
  }

  /**
   * After solves, with several servers: the holder of the game's turn renders and the others
   * wait for its board (see `adopt`), rendering their own only if none comes within
   * FALLBACK_MS. Reloads and frozen boards are each server's own work, as alone.
   */
  function rebuildOrWait(gameId: number, state: GameState) {
    const { share } = deps
    if (!share || state.stale || since(state) !== null) return rebuild(gameId, state)
    share.claim(gameId).then((mine) => {
      if (games.get(gameId) !== state) return
      if (mine) return rebuild(gameId, state)
      state.awaiting = state.live.solveCount
      state.fallback ??= setTimeout(() => {
        state.fallback = null
        if (games.get(gameId) === state) rebuild(gameId, state)
      }, FALLBACK_MS)
      state.fallback.unref()
    })
  }

  /**
   * A board another server rendered for all: served instead of ours when it shows more solves.
   * Once it covers what we knew when we left the render to it, we stop waiting; solves it does
   * not have yet come in its next board.
   */
  async function adopt(m: { gameId: number; etag: string; at: number; solves: number }) {
    const state = games.get(m.gameId)
    if (!state || !deps.share || state.stale || since(state) !== null) return
    if (m.solves > state.shown && m.etag !== state.entry.etag) {
      // The latest board handed over: this one, or a newer one rendered meanwhile.
      const board = await deps.share.fetch(m.gameId)
      if (!board || games.get(m.gameId) !== state || board.solves <= state.shown) return
      for (const x of state.slabs) x.current = false
      state.shown = board.solves
      const encoded = encoder(board.bytes, state.codings, () => noRelease)
      const previous = state.entry
      state.entry = {
        live: state.live,
        bytes: board.bytes,
        etag: board.etag,
        updatedAt: new Date(board.at),
        hidden: state.entry.hidden,
        retain: () => noRelease,
        encoded,
      }
      precompress(encoded, state.codings, previous)
      deps.bus?.publish('board.changed', { gameId: m.gameId, etag: board.etag })
    }
    if (state.awaiting !== null && m.solves >= state.awaiting) stopWaiting(state)
  }

  function schedule(gameId: number, state: GameState) {
    if (state.timer) return
    // Rebuilds cost time in proportion to the whole board: waiting five times as long as the
    // last one took keeps them to a sixth of the event loop whatever the number of solves (so
    // the cost per solve stays flat), and a solve still shows within a second.
    const wait = Math.min(800, Math.max(delayMs, lastRenderMs * 5))
    state.timer = deps.clock
      .setTimeout(() => {
        state.timer = null
        rebuildOrWait(gameId, state)
      }, wait)
      .unref()
  }

  async function stateOf(gameId: number): Promise<GameState> {
    const ready = games.get(gameId)
    const due =
      ready &&
      ((ready.reloadAt !== null && deps.clock.now() >= ready.reloadAt) ||
        ready.scheduled !== (deps.scheduled?.() ?? false))
    if (ready && !due) return ready
    let pending = loading.get(gameId)
    if (!pending) {
      pending = load(gameId).finally(() => loading.delete(gameId))
      loading.set(gameId, pending)
    }
    return pending
  }

  return {
    /**
     * Loads the boards of the games running now (at most `WARM_GAMES`, latest started first),
     * for the server to call as it starts, without waiting: after a restart in a contest the
     * first players find the board built (6 000 teams take most of a second of CPU), and its
     * queries run in the database while the server is still registering its routes.
     */
    async warm(): Promise<number[]> {
      const now = new Date(deps.clock.now())
      const running = await db
        .select({ id: gameRows.id })
        .from(gameRows)
        .where(and(lte(gameRows.startTimeUtc, now), gt(gameRows.endTimeUtc, now), eq(gameRows.hidden, false)))
        .orderBy(desc(gameRows.startTimeUtc))
        .limit(WARM_GAMES)
      await Promise.all(running.map(({ id }) => stateOf(id)))
      return running.map(({ id }) => id)
    },

    /** The current (true) board of a game (built on first use). */
    async get(gameId: number): Promise<BoardEntry> {
      return (await stateOf(gameId)).entry
    },

    /**
     * The board `actor` may see: while the game is frozen, players and anonymous readers get
     * the board as it stood at the freeze; admins and monitors (and `truth` readers) the true one.
     */
    async view(
      gameId: number,
      actor: SessionUser | null,
      opts: { public?: boolean } = {},
    ): Promise<BoardView> {
      const state = await stateOf(gameId)
      const at = since(state)
      if (at === null) return { entry: state.entry, frozenSince: null, frozen: false }
      if (seesThroughFreeze(actor) && !opts.public)
        return { entry: state.entry, frozenSince: at, frozen: false }
      return { entry: await frozenOf(gameId, state, at), frozenSince: at, frozen: true }
    },

    /** Since when the game's public board is frozen (null: it is not), from the cached board. */
    async frozenSince(gameId: number): Promise<number | null> {
      return since(await stateOf(gameId))
    },

    /** A judged solve: counted in memory, shown after the next (coalesced) rebuild. */
    addSolve(gameId: number, solve: BoardSolve, acceptedCount: number) {
      arriving.get(gameId)?.push({ solve, acceptedCount })
      const state = games.get(gameId)
      if (!state) return
      state.live.addSolve(solve, acceptedCount)
      schedule(gameId, state)
    },

    adopt,

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
      state?.timer?.clear()
      if (state) stopWaiting(state)
      games.delete(gameId)
    },

    /**
     * Reloads a game's board now (after a reveal or a change of the freeze switch), so the hub
     * tells players of the board they may now see.
     */
    async reload(gameId: number): Promise<void> {
      const state = games.get(gameId)
      state?.timer?.clear()
      await load(gameId)
    },

    close() {
      for (const s of games.values()) {
        s.timer?.clear()
        stopWaiting(s)
      }
      games.clear()
    },
  }
}
export type ScoreboardService = ReturnType<typeof createScoreboardService>
