import { Text, UnstyledButton, VisuallyHidden } from '@mantine/core'
import { IconCircleCheckFilled } from '@tabler/icons-react'
import type { CSSProperties } from 'react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import type { ChallengeInfo } from '../api'
import { CATEGORY_META, categoryColor, categoryLabelKey } from '../categories'
import { BLOOD_TYPES, SolveIcon, solveTypeKey } from '../components/blood-icon'
import classes from './challenge-card.module.css'

/**
 * A challenge on the board, as a button that opens it: title, current points, solve count, the
 * three bloods (named for screen readers), and whether my team solved it (icon and word).
 */
export function ChallengeCard({
  challenge,
  solved,
  myTeamId,
  onOpen,
}: {
  challenge: ChallengeInfo
  solved: boolean
  myTeamId: number | undefined
  onOpen: (challenge: ChallengeInfo) => void
}) {
  const { t } = useTranslation()
  const meta = CATEGORY_META[challenge.category] ?? CATEGORY_META.Misc
  const CategoryIcon = meta.icon
  return (
    <UnstyledButton
      className={classes.card}
      data-solved={solved || undefined}
      data-challenge-id={challenge.id}
      style={{ '--category-color': categoryColor(challenge.category) } as CSSProperties}
      onClick={() => onOpen(challenge)}
    >
      <CategoryIcon size={88} stroke={1.2} className={classes.watermark} aria-hidden />
      <span className={classes.head}>
        <CategoryIcon size={18} color="var(--category-color)" aria-hidden style={{ flexShrink: 0 }} />
        <VisuallyHidden>{t(categoryLabelKey(challenge.category))}: </VisuallyHidden>
        <span className={classes.title} title={challenge.title}>
          {challenge.title}
        </span>
      </span>
      <span className={classes.score}>{t('challenge.card.points', { score: challenge.score })}</span>
      <span className={classes.line}>
        <Text span size="xs" c="dimmed">
          {t('challenge.card.solve_count', { count: challenge.solved })}
        </Text>
        {solved && (
          <span className={classes.solved}>
            <IconCircleCheckFilled size={16} aria-hidden />
            {t('challenge.card.solved_by_us')}
          </span>
        )}
      </span>
      <span className={classes.bloods}>
        {challenge.bloods.slice(0, 3).map((blood, i) => {
          const type = BLOOD_TYPES[i]!
          const label = t('challenge.card.blood', {
            blood: t(solveTypeKey(type)),
            team: blood.name,
            time: blood.submitTimeUtc ? formatDateTime(blood.submitTimeUtc) : '',
          })
          return (
            <span
              key={type}
              className={classes.blood}
              data-mine={blood.id === myTeamId || undefined}
              title={label}
            >
              <SolveIcon type={type} />
              <VisuallyHidden>{label}</VisuallyHidden>
            </span>
          )
        })}
      </span>
    </UnstyledButton>
  )
}
