export interface BackoffOptions {
  /** First wait, ms. */
  first?: number
  /** Growth per attempt. */
  factor?: number
  /** Longest single wait, ms. */
  max?: number
  /** Total time to keep trying, ms. */
  budget?: number
}

/**
 * The waits between status checks of a submitted flag: short at first (most flags are judged
 * in milliseconds), growing to `max`, until `budget` is spent. The reference client polled every
 * 500 ms forever; a stalled judge must not cost a request every half second per player.
 */
export function backoffSchedule({
  first = 300,
  factor = 1.5,
  max = 2_000,
  budget = 60_000,
}: BackoffOptions = {}): number[] {
  const delays: number[] = []
  let total = 0
  let next = first
  while (total + next <= budget) {
    delays.push(next)
    total += next
    next = Math.min(max, Math.round(next * factor))
  }
  return delays
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms)
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer)
        reject(signal.reason)
      },
      { once: true },
    )
  })

/**
 * Calls `check` after each wait of `delays` until `done` accepts its answer; resolves with that
 * answer, or `undefined` when the schedule runs out.
 */
export async function pollUntil<T>(
  check: () => Promise<T>,
  done: (value: T) => boolean,
  delays: readonly number[],
  options: { signal?: AbortSignal; wait?: (ms: number, signal?: AbortSignal) => Promise<void> } = {},
): Promise<T | undefined> {
  const wait = options.wait ?? sleep
  for (const delay of delays) {
    await wait(delay, options.signal)
    const value = await check()
    if (done(value)) return value
  }
  return undefined
}
