import { useElementSize, useMergedRef } from '@mantine/hooks'
import { useId, useRef } from 'react'
import type { Scoreboard } from '@/features/game/api'
import { ChartPlot } from '@/features/game/scoreboard/chart-plot'
import { useTranslation } from '@/i18n'
import classes from './bigscreen.module.css'

type TimeLine = Scoreboard['timeLines'][string][number]

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

  return (
    <figure className={classes.chart} ref={ref} aria-labelledby={titleId}>
      <figcaption id={titleId} className={classes.srOnly}>
        {t('bigscreen.chart')}
      </figcaption>
      {width > 0 && height > 0 && (
        <ChartPlot
          lines={lines}
          start={start}
          end={end}
          now={now}
          width={width}
          height={height}
          margin={margin}
          labelGap={{ score: em * 0.4, time: em * 0.3 }}
          timeTicksWanted={5}
          charWidth={em * 0.6}
          classes={{ grid: classes.grid, axis: classes.axis, now: classes.now, line: classes.line }}
        />
      )}
    </figure>
  )
}
