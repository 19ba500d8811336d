/**
 * The time the game rules and the timed jobs go by: phases, freezes, bloods, container expiry and
 * turns, rate windows, scheduled release. One port so that tests (and, with PENNANT_TEST_CLOCK=1,
 * the end-to-end suite against the built server) move time forward instead of waiting for it.
 * Logs, metrics and latency measurements keep the wall clock: they describe the process, not the game.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /** The same instant as a Date. */
  date(): Date
  /** Runs `fn` once `ms` of this clock's time has passed. */
  setTimeout(fn: () => void, ms: number): ClockTimer
  /** Runs `fn` every `ms` of this clock's time. */
  setInterval(fn: () => void, ms: number): ClockTimer
}

export interface ClockTimer {
  clear(): void
  /** Does not keep the process alive (as Node's `unref`). */
  unref(): ClockTimer
}

function wrap(handle: NodeJS.Timeout, clear: (h: NodeJS.Timeout) => void): ClockTimer {
  const timer: ClockTimer = {
    clear: () => clear(handle),
    unref: () => {
      handle.unref()
      return timer
    },
  }
  return timer
}

/** The real time: what production runs on. */
export const systemClock: Clock = {
  now: () => Date.now(),
  date: () => new Date(),
  setTimeout: (fn, ms) => wrap(setTimeout(fn, ms), clearTimeout),
  setInterval: (fn, ms) => wrap(setInterval(fn, ms), clearInterval),
}

export interface AdjustableClock extends Clock {
  /**
   * Moves this clock `ms` forward (never back: deadlines already passed stay passed). Timers
   * whose time has come run before it returns; an interval that missed several turns runs once.
   */
  advance(ms: number): void
  /** How far ahead of the real time this clock is. */
  offset(): number
}

/**
 * The real time plus an offset that only grows. Time still flows (requests, database timestamps
 * and waits for real processes behave as in production); `advance` skips what a test would
 * otherwise sleep through.
 */
export function createAdjustableClock(): AdjustableClock {
  let offset = 0
  const now = () => Date.now() + offset
  interface Pending {
    due: number
    every: number | null
    fn: () => void
    handle: NodeJS.Timeout | null
    unref: boolean
  }
  const pending = new Set<Pending>()
  const arm = (p: Pending) => {
    if (p.handle) clearTimeout(p.handle)
    p.handle = setTimeout(() => fire(p), Math.max(0, p.due - now()))
    if (p.unref) p.handle.unref()
  }
  const fire = (p: Pending) => {
    if (p.every === null) pending.delete(p)
    else {
      p.due = now() + p.every
      arm(p)
    }
    p.fn()
  }
  const schedule = (fn: () => void, ms: number, every: number | null): ClockTimer => {
    const p: Pending = { due: now() + ms, every, fn, handle: null, unref: false }
    pending.add(p)
    arm(p)
    const timer: ClockTimer = {
      clear() {
        pending.delete(p)
        if (p.handle) clearTimeout(p.handle)
      },
      unref() {
        p.unref = true
        p.handle?.unref()
        return timer
      },
    }
    return timer
  }
  return {
    now,
    date: () => new Date(now()),
    setTimeout: (fn, ms) => schedule(fn, ms, null),
    setInterval: (fn, ms) => schedule(fn, ms, ms),
    advance(ms) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`the clock only moves forward (asked: ${ms})`)
      offset += ms
      // Due timers run now, in the order they were due, before `advance` returns.
      const due = [...pending].filter((p) => p.due <= now()).sort((a, b) => a.due - b.due)
      for (const p of pending) if (!due.includes(p)) arm(p)
      for (const p of due) {
        if (p.handle) clearTimeout(p.handle)
        fire(p)
      }
    },
    offset: () => offset,
  }
}
