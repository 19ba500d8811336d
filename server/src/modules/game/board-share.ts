import type { Bus } from '../../infra/bus/index.ts'
import type { RedisConnections } from '../../infra/redis/index.ts'

/**
 * Several servers render a game's board once: the server holding a game's turn renders it and
 * hands the bytes to the others through Redis, and they serve those bytes instead of rendering
 * the same board themselves. Every server still adds each solve to its own in-memory board (a
 * cheap step), so any of them can take the turn over.
 */
export interface BoardShare {
  /**
   * Whether this server renders the game's board now: it takes the turn when nobody holds it
   * and keeps it while it renders. False: another server renders and will hand its board over.
   */
  claim(gameId: number): Promise<boolean>
  /** Hands a rendered board to the other servers. */
  publish(board: SharedBoard): void
  /** The last board a server handed over for the game (null when none or Redis is away). */
  fetch(gameId: number): Promise<SharedBoard | null>
}

export interface SharedBoard {
  gameId: number
  etag: string
  /** Its update time (epoch ms). */
  at: number
  /** How many solves it shows. */
  solves: number
  bytes: Buffer
}

/** A turn lapses this long after its holder's last render: another server takes it then. */
export const TURN_MS = 3000
/**
 * A handed-over board is kept this long for the others to fetch. One key per game holds the
 * latest (a line of JSON with its tag, time and solves, then the bytes), so Redis keeps one
 * board per game however often it is rendered.
 */
const KEEP_MS = 30_000

// Takes the turn when free or already ours, and extends it: one round trip.
const CLAIM = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
`

export function createRedisBoardShare(redis: RedisConnections, bus: Bus): BoardShare {
  const { command, prefix, origin } = redis
  command.defineCommand('pennantBoardTurn', { numberOfKeys: 1, lua: CLAIM })
  const turn = (
    command as unknown as { pennantBoardTurn(key: string, who: string, ms: number): Promise<number> }
  ).pennantBoardTurn
  const key = (gameId: number) => `${prefix}board:${gameId}`
  return {
    async claim(gameId) {
      // Redis away: every server renders its own board, as alone.
      if (!redis.usable()) return true
      try {
        return (await turn.call(command, `${prefix}board-turn:${gameId}`, origin, TURN_MS)) === 1
      } catch (err) {
        redis.failed(err)
        return true
      }
    },
    publish({ gameId, etag, at, solves, bytes }) {
      if (!redis.usable()) return
      // A copy: the rendered buffer is reused by a later render while this one may still be sent.
      const value = Buffer.concat([Buffer.from(`${JSON.stringify({ etag, at, solves })}\n`), bytes])
      command.set(key(gameId), value, 'PX', KEEP_MS).then(
        () => bus.publish('board.rendered', { gameId, etag, at, solves }),
        // Not stored: the others render it themselves when their wait runs out.
        (err: unknown) => redis.failed(err),
      )
    },
    async fetch(gameId) {
      if (!redis.usable()) return null
      try {
        const value = await command.getBuffer(key(gameId))
        if (!value) return null
        const end = value.indexOf(0x0a)
        const head = JSON.parse(value.subarray(0, end).toString()) as Omit<SharedBoard, 'gameId' | 'bytes'>
        return { gameId, ...head, bytes: value.subarray(end + 1) }
      } catch (err) {
        redis.failed(err)
        return null
      }
    },
  }
}
