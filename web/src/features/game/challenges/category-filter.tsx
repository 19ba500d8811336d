import { UnstyledButton } from '@mantine/core'
import { IconCategory } from '@tabler/icons-react'
import type { ChallengeCategory } from '@/api/types'
import { useTranslation } from '@/i18n'
import { CATEGORY_META, categoryColor, categoryLabelKey } from '../categories'
import classes from './board.module.css'

export type CategoryChoice = ChallengeCategory | 'All'

/** "All" and each category present, with icon, name and count; the chosen one is pressed. */
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
  return (
    <ul className={classes.filters} aria-label={t('challenge.filter.label')}>
      {items.map(([category, count]) => {
        const CategoryIcon = category === 'All' ? IconCategory : CATEGORY_META[category].icon
        const color = category === 'All' ? undefined : categoryColor(category)
        return (
          <li key={category}>
            <UnstyledButton
              className={classes.filter}
              aria-pressed={value === category}
              onClick={() => onChange(category)}
            >
              <CategoryIcon size={18} color={color} aria-hidden />
              <span>{category === 'All' ? t('challenge.filter.all') : t(categoryLabelKey(category))}</span>
              <span className={classes.count}>{count}</span>
            </UnstyledButton>
          </li>
        )
      })}
    </ul>
  )
}
