import { formatDateTime } from '@/utils/format-date'
import type { Scoreboard } from '../api'
import { chartWindow, fittingTicks, linearScale, scoreTicks, stepPath, timeTicks } from './chart-scale'

type TimeLine = Scoreboard['timeLines'][string][number]

/** The top teams' colours, in rank order (the legend and the big screen's rows use them too). */
export const LINE_COLORS = [
  'blue',
  'red',
  'green',
  'orange',
  'grape',
  'cyan',
  'yellow',
  'pink',
  'lime',
  'indigo',
].map((c) => `var(--mantine-color-${c}-filled)`)

/** A tick label: the time alone for short games, with the date for longer ones. */
export function tickLabel(ms: number, span: number): string {
  return span > 36 * 3_600_000
    ? formatDateTime(ms, {
        dateStyle: undefined,
        timeStyle: undefined,
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
      })
    : formatDateTime(ms, { dateStyle: undefined, timeStyle: 'short' })
}

/**
 * The picture of a score chart, our own SVG (a chart library would weigh more than the whole
 * page): grid and score labels, time labels, a "now" line and one step line per team. The
 * scoreboard's chart and the big screen's size it differently and style it with their classes.
 */
export function ChartPlot({
  lines,
  start,
  end,
  now,
  width,
  height,
  margin,
  labelGap,
  timeTicksWanted,
  charWidth,
  classes,
  active,
}: {
  lines: TimeLine[]
  start: number
  end: number
  now: number
  width: number
  height: number
  margin: { top: number; right: number; bottom: number; left: number }
  /** Space between the score labels and the plot, and between the time labels and the bottom. */
  labelGap: { score: number; time: number }
  timeTicksWanted: number
  /** About how wide one character of a time label is, in pixels: labels never run into each other. */
  charWidth: number
  classes: { grid?: string; axis?: string; now?: string; line?: string; svg?: string }
  /** The team whose line is brought forward. */
  active?: number | null
}) {
  const to = Math.min(now, end)
  const [from, until] = chartWindow(start, end, now)
  const span = until - from
  const max = Math.max(0, ...lines.flatMap((l) => l.items.map((p) => p.score)))
  const yTicks = scoreTicks(max)
  const innerWidth = Math.max(0, width - margin.left - margin.right)
  const x = linearScale([from, until], [margin.left, margin.left + innerWidth])
  const y = linearScale([0, yTicks[yTicks.length - 1]!], [height - margin.bottom, margin.top])
  const labelWidth = charWidth * tickLabel(until, span).length
  const xTicks = timeTicks(from, until, fittingTicks(innerWidth, labelWidth, timeTicksWanted))
  return (
    <svg
      className={classes.svg}
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden
      data-focus={active != null || undefined}
    >
      {yTicks.map((v) => (
        <g key={v}>
          <line className={classes.grid} x1={margin.left} x2={margin.left + innerWidth} y1={y(v)} y2={y(v)} />
          <text
            className={classes.axis}
            x={margin.left - labelGap.score}
            y={y(v)}
            dy="0.32em"
            textAnchor="end"
          >
            {v}
          </text>
        </g>
      ))}
      {xTicks.map((v, i) => (
        <text
          key={v}
          className={classes.axis}
          x={x(v)}
          y={height - labelGap.time}
          textAnchor={i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle'}
        >
          {tickLabel(v, span)}
        </text>
      ))}
      {now < until && now > from && (
        <line className={classes.now} x1={x(now)} x2={x(now)} y1={margin.top} y2={height - margin.bottom} />
      )}
      {lines.map((line, i) => (
        <path
          key={line.id}
          className={classes.line}
          d={stepPath(line.items, x, y, from, to)}
          stroke={LINE_COLORS[i % LINE_COLORS.length]}
          data-active={(active != null && active === line.id) || undefined}
        />
      ))}
    </svg>
  )
}
