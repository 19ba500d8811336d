import { useElementSize, useMergedRef } from '@mantine/hooks'
import { useId, useRef } from 'react'
import type { Scoreboard } from '@/features/game/api'
import { linearScale, scoreTicks, stepPath, timeTicks } from '@/features/game/scoreboard/chart-scale'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import classes from './bigscreen.module.css'

type TimeLine = Scoreboard['timeLines'][string][number]

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

/**
 * The top teams' scores over time, sized to fill its box (the projector's, whatever its
 * resolution) with labels in the page's type size. Not interactive: nobody touches a projector.
 */
export function BigChart({
  lines,
  start,
  end,
  now,
}: {
  lines: TimeLine[]
  start: number
  end: number
  now: number
}) {
  const { t } = useTranslation()
  const { ref: sized, width, height } = useElementSize()
  const box = useRef<HTMLElement>(null)
  const ref = useMergedRef(sized, box)
  const titleId = useId()
  // The labels are in em of the box: measure one em from its computed font size.
  const em = box.current ? Number.parseFloat(getComputedStyle(box.current).fontSize) || 16 : 16
  const margin = { top: em * 0.6, right: em * 1.2, bottom: em * 1.8, left: em * 3.6 }
  const to = Math.min(now, end)
  const max = Math.max(0, ...lines.flatMap((l) => l.items.map((p) => p.score)))
  const yTicks = scoreTicks(max)
  const innerWidth = Math.max(0, width - margin.left - margin.right)
  const x = linearScale([start, end], [margin.left, margin.left + innerWidth])
  const y = linearScale([0, yTicks[yTicks.length - 1]!], [height - margin.bottom, margin.top])
  // Fewer time labels on a narrow box, so they do not run into each other.
  const xTicks = timeTicks(start, end, innerWidth < 40 * em ? 2 : 5)
  const long = end - start > 36 * 3_600_000
  const label = (ms: number) =>
    long
      ? formatDateTime(ms, {
          dateStyle: undefined,
          timeStyle: undefined,
          month: 'short',
          day: 'numeric',
          hour: '2-digit',
        })
      : formatDateTime(ms, { dateStyle: undefined, timeStyle: 'short' })

  return (
    <figure className={classes.chart} ref={ref} aria-labelledby={titleId}>
      <figcaption id={titleId} className={classes.srOnly}>
        {t('bigscreen.chart')}
      </figcaption>
      {width > 0 && height > 0 && (
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden>
          {yTicks.map((v) => (
            <g key={v}>
              <line
                className={classes.grid}
                x1={margin.left}
                x2={margin.left + innerWidth}
                y1={y(v)}
                y2={y(v)}
              />
              <text className={classes.axis} x={margin.left - em * 0.4} y={y(v)} dy="0.32em" textAnchor="end">
                {v}
              </text>
            </g>
          ))}
          {xTicks.map((v, i) => (
            <text
              key={v}
              className={classes.axis}
              x={x(v)}
              y={height - em * 0.3}
              textAnchor={i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle'}
            >
              {label(v)}
            </text>
          ))}
          {now < end && now > start && (
            <line
              className={classes.now}
              x1={x(now)}
              x2={x(now)}
              y1={margin.top}
              y2={height - margin.bottom}
            />
          )}
          {lines.map((line, i) => (
            <path
              key={line.id}
              className={classes.line}
              d={stepPath(line.items, x, y, start, to)}
              stroke={LINE_COLORS[i % LINE_COLORS.length]}
            />
          ))}
        </svg>
      )}
    </figure>
  )
}
