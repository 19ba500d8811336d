import { UnstyledButton } from '@mantine/core'
import { IconCategory } from '@tabler/icons-react'
import type { KeyboardEvent } from 'react'
import type { ChallengeCategory } from '@/api/types'
import { useTranslation } from '@/i18n'
import { CATEGORY_META, categoryColor, categoryLabelKey } from '../categories'
import classes from './board.module.css'

export type CategoryChoice = ChallengeCategory | 'All'

/**
 * "All" and each category present, with icon, name and count; the chosen one is pressed. One
 * stop in the Tab order (a toolbar): the arrow keys, Home and End move between the buttons, so
 * the challenges are a few Tab presses away however many categories there are.
 */
export function CategoryFilter({
  counts,
  value,
  onChange,
}: {
  counts: [ChallengeCategory, number][]
  value: CategoryChoice
  onChange: (value: CategoryChoice) => void
}) {
  const { t } = useTranslation()
  const total = counts.reduce((sum, [, n]) => sum + n, 0)
  const items: [CategoryChoice, number][] = [['All', total], ...counts]
  const current = Math.max(
    0,
    items.findIndex(([category]) => category === value),
  )

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...event.currentTarget.querySelectorAll<HTMLButtonElement>('button')]
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement)
    if (at < 0) return
    const next = {
      ArrowDown: at + 1,
      ArrowRight: at + 1,
      ArrowUp: at - 1,
      ArrowLeft: at - 1,
      Home: 0,
      End: buttons.length - 1,
    }[event.key]
    if (next === undefined) return
    event.preventDefault()
    buttons[(next + buttons.length) % buttons.length]?.focus()
  }

  return (
    <div
      role="toolbar"
      className={classes.filters}
      aria-label={t('challenge.filter.label')}
      onKeyDown={onKeyDown}
    >
      {items.map(([category, count], index) => {
        const CategoryIcon = category === 'All' ? IconCategory : CATEGORY_META[category].icon
        const color = category === 'All' ? undefined : categoryColor(category)
        return (
          <UnstyledButton
            key={category}
            className={classes.filter}
            aria-pressed={value === category}
            tabIndex={index === current ? 0 : -1}
            onClick={() => onChange(category)}
          >
            <CategoryIcon size={18} color={color} aria-hidden />
            <span>{category === 'All' ? t('challenge.filter.all') : t(categoryLabelKey(category))}</span>
            <span className={classes.count}>{count}</span>
          </UnstyledButton>
        )
      })}
    </div>
  )
}
