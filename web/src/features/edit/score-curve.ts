import { dynamicScore } from '@engine/scoring.ts'

export interface CurvePoint {
  solves: number
  score: number
}

/**
 * How many solves the chart spans: enough to show the curve flatten (about four times the
 * difficulty), at least 10 and at most 200 (the dots would merge beyond that).
 */
export function curveSpan(difficulty: number): number {
  if (!Number.isFinite(difficulty) || difficulty <= 0) return 10
  return Math.min(200, Math.max(10, Math.ceil(difficulty * 4)))
}

/** The score after 1..span solves, from the engine's own formula. */
export function scoreCurve(
  originalScore: number,
  minScoreRate: number,
  difficulty: number,
  span = curveSpan(difficulty),
): CurvePoint[] {
  return Array.from({ length: span }, (_, i) => ({
    solves: i + 1,
    score: dynamicScore(originalScore, minScoreRate, difficulty, i + 1),
  }))
}

/** An SVG path through the points, in a `width` × `height` box (y grows downward). */
export function curvePath(points: CurvePoint[], width: number, height: number, maxScore: number): string {
  if (!points.length) return ''
  const last = points[points.length - 1]!.solves
  const first = points[0]!.solves
  const x = (s: number) => (last === first ? 0 : ((s - first) / (last - first)) * width)
  const y = (v: number) => (maxScore <= 0 ? height : height - (v / maxScore) * height)
  return points.map((p, i) => `${i ? 'L' : 'M'}${x(p.solves).toFixed(1)} ${y(p.score).toFixed(1)}`).join(' ')
}
