import { minimumScore } from '@engine/scoring.ts'
import { Box, Text } from '@mantine/core'
import { useTranslation } from '@/i18n'
import { curvePath, scoreCurve } from '../score-curve'

const W = 320
const H = 120
const PAD = { left: 40, right: 8, top: 8, bottom: 22 }

/** The challenge's score against its solve count, drawn from the engine's formula (plain SVG). */
export function ScoreCurveChart({
  originalScore,
  minScoreRate,
  difficulty,
}: {
  originalScore: number
  minScoreRate: number
  difficulty: number
}) {
  const { t } = useTranslation()
  const valid = [originalScore, minScoreRate, difficulty].every(Number.isFinite) && originalScore > 0
  if (!valid)
    return (
      <Text size="sm" c="dimmed">
        {t('admin.challenge.curve.invalid')}
      </Text>
    )
  const points = scoreCurve(originalScore, minScoreRate, difficulty)
  const last = points[points.length - 1]!
  const min = minimumScore(originalScore, minScoreRate)
  const iw = W - PAD.left - PAD.right
  const ih = H - PAD.top - PAD.bottom
  const path = curvePath(points, iw, ih, originalScore)
  const minY = ih - (min / originalScore) * ih
  const summary = t('admin.challenge.curve.summary', {
    first: points[0]!.score,
    solves: last.solves,
    last: last.score,
    min,
  })

  return (
    <Box>
      <svg
        viewBox={`0 0 ${W} ${H}`}
        width="100%"
        style={{ maxWidth: 480, display: 'block' }}
        role="img"
        aria-label={summary}
      >
        <g transform={`translate(${PAD.left} ${PAD.top})`} fontSize="10" fill="var(--mantine-color-dimmed)">
          <line x1={0} y1={ih} x2={iw} y2={ih} stroke="var(--mantine-color-default-border)" />
          <line x1={0} y1={0} x2={0} y2={ih} stroke="var(--mantine-color-default-border)" />
          <line
            x1={0}
            y1={minY}
            x2={iw}
            y2={minY}
            stroke="var(--mantine-color-red-5)"
            strokeDasharray="4 3"
            opacity={0.7}
          />
          <text x={-4} y={4} textAnchor="end">
            {originalScore}
          </text>
          <text x={-4} y={Math.min(ih, minY + 3)} textAnchor="end">
            {min}
          </text>
          <text x={0} y={ih + 14} textAnchor="start">
            1
          </text>
          <text x={iw} y={ih + 14} textAnchor="end">
            {t('admin.challenge.curve.solves', { count: last.solves })}
          </text>
          <path d={path} fill="none" stroke="var(--mantine-primary-color-filled)" strokeWidth={2} />
        </g>
      </svg>
      <Text size="xs" c="dimmed">
        {summary}
      </Text>
    </Box>
  )
}
