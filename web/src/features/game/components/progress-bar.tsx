import type { CSSProperties } from 'react'
import classes from './progress-bar.module.css'

/** A thin progress bar (0 to 100) with its value for screen readers. */
export function ProgressBar({ value, label, height = 6 }: { value: number; label: string; height?: number }) {
  const percent = Math.min(100, Math.max(0, Math.round(value)))
  return (
    <div
      className={classes.track}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={percent}
      style={{ '--bar-height': `${height}px` } as CSSProperties}
    >
      <div className={classes.bar} style={{ width: `${percent}%` }} />
    </div>
  )
}
