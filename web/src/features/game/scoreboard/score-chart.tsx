import { UnstyledButton } from '@mantine/core'
import { useElementSize } from '@mantine/hooks'
import { useId, useState } from 'react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { Scoreboard } from '../api'
import { linearScale, scoreTicks, stepPath, timeTicks } from './chart-scale'
import classes from './score-chart.module.css'

type TimeLine = Scoreboard['timeLines'][string][number]

const COLORS = ['blue', 'red', 'green', 'orange', 'grape', 'cyan', 'yellow', 'pink', 'lime', 'indigo'].map(
  (c) => `var(--mantine-color-${c}-filled)`,
)
const HEIGHT = 280
const MARGIN = { top: 12, right: 16, bottom: 28, left: 48 }

/** A tick label: the time alone for short games, with the date for longer ones. */
function tickLabel(ms: number, span: number): string {
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
 * The top teams' scores over time as step lines, drawn as our own SVG (a chart library would
 * weigh more than the whole page). Hovering or focusing a team in the legend brings its line
 * forward. Screen readers get a table of the same teams instead of the picture.
 */
export default function ScoreChart({
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
  const { ref, width } = useElementSize()
  const [pinned, setPinned] = useState<number | null>(null)
  const [hovered, setHovered] = useState<number | null>(null)
  const focus = hovered ?? pinned
  const titleId = useId()
  const to = Math.min(now, end)
  const max = Math.max(0, ...lines.flatMap((l) => l.items.map((p) => p.score)))
  const yTicks = scoreTicks(max)
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right)
  const x = linearScale([start, end], [MARGIN.left, MARGIN.left + innerWidth])
  const y = linearScale([0, yTicks[yTicks.length - 1]!], [HEIGHT - MARGIN.bottom, MARGIN.top])
  const xTicks = timeTicks(start, end, innerWidth < 500 ? 2 : 4)

  return (
    <figure className={classes.wrap} ref={ref} style={{ margin: 0 }} aria-labelledby={titleId}>
      <figcaption id={titleId} className={classes.srOnly}>
        {t('game.chart.title')}
      </figcaption>
      {width > 0 && (
        <svg
          className={classes.svg}
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          aria-hidden
          data-focus={focus !== null || undefined}
        >
          {yTicks.map((v) => (
            <g key={v}>
              <line
                className={classes.grid}
                x1={MARGIN.left}
                x2={MARGIN.left + innerWidth}
                y1={y(v)}
                y2={y(v)}
              />
              <text className={classes.axisLabel} x={MARGIN.left - 6} y={y(v)} dy="0.32em" textAnchor="end">
                {v}
              </text>
            </g>
          ))}
          {xTicks.map((v, i) => (
            <text
              key={v}
              className={classes.axisLabel}
              x={x(v)}
              y={HEIGHT - 8}
              textAnchor={i === 0 ? 'start' : i === xTicks.length - 1 ? 'end' : 'middle'}
            >
              {tickLabel(v, end - start)}
            </text>
          ))}
          {now < end && now > start && (
            <line
              className={classes.now}
              x1={x(now)}
              x2={x(now)}
              y1={MARGIN.top}
              y2={HEIGHT - MARGIN.bottom}
            />
          )}
          {lines.map((line, i) => (
            <path
              key={line.id}
              className={classes.line}
              d={stepPath(line.items, x, y, start, to)}
              stroke={COLORS[i % COLORS.length]}
              data-active={focus === line.id || undefined}
            />
          ))}
        </svg>
      )}
      <ul className={classes.legend} aria-label={t('game.chart.legend')}>
        {lines.map((line, i) => (
          <li key={line.id}>
            <UnstyledButton
              className={classes.legendItem}
              aria-pressed={pinned === line.id}
              onClick={() => setPinned((p) => (p === line.id ? null : line.id))}
              onMouseEnter={() => setHovered(line.id)}
              onMouseLeave={() => setHovered(null)}
            >
              <span className={classes.swatch} style={{ background: COLORS[i % COLORS.length] }} />
              {i + 1}. {line.name}
            </UnstyledButton>
          </li>
        ))}
      </ul>
      <table className={classes.srOnly}>
        <caption>{t('game.chart.table_caption')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('game.scoreboard.team')}</th>
            <th scope="col">{t('game.scoreboard.score')}</th>
            <th scope="col">{t('game.scoreboard.solved')}</th>
            <th scope="col">{t('game.chart.last_solve')}</th>
          </tr>
        </thead>
        <tbody>
          {lines.map((line) => {
            const last = line.items[line.items.length - 1]
            return (
              <tr key={line.id}>
                <th scope="row">{line.name}</th>
                <td>{last?.score ?? 0}</td>
                <td>{line.items.length}</td>
                <td>{last ? formatDateTime(last.time) : '—'}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </figure>
  )
}
