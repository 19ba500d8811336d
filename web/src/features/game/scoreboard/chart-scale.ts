/** A linear map from a data interval onto a pixel interval. */
export function linearScale(domain: [number, number], range: [number, number]): (value: number) => number {
  const [d0, d1] = domain
  const [r0, r1] = range
  const span = d1 - d0
  return (value) => (span === 0 ? r0 : r0 + ((value - d0) / span) * (r1 - r0))
}

/** The smallest "round" number (1, 2 or 5 times a power of ten) at or above `value`. */
export function niceCeil(value: number): number {
  if (value <= 0) return 1
  const power = 10 ** Math.floor(Math.log10(value))
  for (const step of [1, 2, 5, 10]) if (step * power >= value) return step * power
  return 10 * power
}

/** Axis ticks from 0 to at least `max`, at a round step, about `count` of them. */
export function scoreTicks(max: number, count = 5): number[] {
  // Scores are whole points: never a step below 1.
  const step = Math.max(1, niceCeil(Math.max(1, max) / count))
  const top = Math.ceil(Math.max(1, max) / step) * step
  const ticks: number[] = []
  for (let v = 0; v <= top; v += step) ticks.push(v)
  return ticks
}

/** `count + 1` evenly spaced times from `start` to `end`. */
/**
 * The time window a score chart shows: from the game's start to now while it runs (at least
 * `minSpan`, so the first minutes are not one vertical stroke), to its end once it is over; the
 * whole game before it starts. Early in a two-day game every team's line was squeezed against
 * the left edge when the axis spanned the whole game.
 */
export function chartWindow(
  start: number,
  end: number,
  now: number,
  minSpan = 10 * 60_000,
): [number, number] {
  if (now >= end || now <= start) return [start, end]
  return [start, Math.min(end, Math.max(now, start + minSpan))]
}

/**
 * How many intervals `timeTicks` may make so that their labels (one more than the intervals),
 * each about `labelWidth` pixels wide with half that between them, fit in `innerWidth`.
 */
export function fittingTicks(innerWidth: number, labelWidth: number, wanted: number): number {
  return Math.max(1, Math.min(wanted, Math.floor(innerWidth / (labelWidth * 1.5)) - 1))
}

export function timeTicks(start: number, end: number, count = 4): number[] {
  if (end <= start || count < 1) return [start]
  return Array.from({ length: count + 1 }, (_, i) => start + ((end - start) * i) / count)
}

export interface Point {
  time: number
  score: number
}

/**
 * An SVG path of a cumulative score as steps: flat at 0 from `from`, up at each solve, then flat
 * until `to` (the end, or now while running). Points outside the window are clamped into it.
 */
export function stepPath(
  points: readonly Point[],
  x: (time: number) => number,
  y: (score: number) => number,
  from: number,
  to: number,
): string {
  const r = (v: number) => Math.round(v * 10) / 10
  const clamp = (t: number) => Math.min(to, Math.max(from, t))
  let d = `M${r(x(from))},${r(y(0))}`
  for (const p of points) d += `H${r(x(clamp(p.time)))}V${r(y(p.score))}`
  return `${d}H${r(x(to))}`
}
