import { Badge } from '@mantine/core'
import type { AnswerResult } from '@/api/types'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/Badge.css'

const COLOR: Record<AnswerResult, string> = {
  Accepted: 'green',
  WrongAnswer: 'red',
  CheatDetected: 'orange',
  NotFound: 'gray',
  FlagSubmitted: 'yellow',
}

/** A submission's result as a worded badge. */
export function AnswerBadge({ status }: { status: AnswerResult }) {
  const { t } = useTranslation()
  return (
    <Badge color={COLOR[status] ?? 'gray'} style={{ flexShrink: 0, overflow: 'visible' }} miw="max-content">
      {t(`game.answer.${status}`)}
    </Badge>
  )
}
