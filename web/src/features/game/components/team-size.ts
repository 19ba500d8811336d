import { t } from '@/i18n'

/** How many members a team may register: "any size", "solo" or "up to N". */
export function teamSizeLabel(limit: number): string {
  if (limit <= 0) return t('game.size.any')
  if (limit === 1) return t('game.size.solo')
  return t('game.size.limited', { count: limit })
}
