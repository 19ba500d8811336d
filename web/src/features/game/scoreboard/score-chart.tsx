import { UnstyledButton } from '@mantine/core'
import { useElementSize } from '@mantine/hooks'
import { useId, useState } from 'react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { Scoreboard } from '../api'
import { ChartPlot, LINE_COLORS } from './chart-plot'
import classes from './score-chart.module.css'

type TimeLine = Scoreboard['timeLines'][string][number]

const HEIGHT = 280
const MARGIN = { top: 12, right: 16, bottom: 28, left: 48 }

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

  return (
    <figure className={classes.wrap} ref={ref} style={{ margin: 0 }} aria-labelledby={titleId}>
      <figcaption id={titleId} className={classes.srOnly}>
        {t('game.chart.title')}
      </figcaption>
      {width > 0 && (
        <ChartPlot
          lines={lines}
          start={start}
          end={end}
          now={now}
          width={width}
          height={HEIGHT}
          margin={MARGIN}
          labelGap={{ score: 6, time: 8 }}
          timeTicksWanted={4}
          // The labels are 11 px (score-chart.module.css): about 6.5 px a character.
          charWidth={6.5}
          classes={{
            svg: classes.svg,
            grid: classes.grid,
            axis: classes.axisLabel,
            now: classes.now,
            line: classes.line,
          }}
          active={focus}
        />
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
              <span className={classes.swatch} style={{ background: LINE_COLORS[i % LINE_COLORS.length] }} />
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
