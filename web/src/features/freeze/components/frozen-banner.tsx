import { Alert } from '@mantine/core'
import { IconSnowflake } from '@tabler/icons-react'
import { hasRole, useUser } from '@/features/account/api'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { useFreeze } from '../api'

/**
 * Says plainly that a game's scoreboard is frozen, and since when (scoreboard, challenges and
 * game pages). Admins and monitors are told they see the live board while players do not.
 */
export function FrozenBanner({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data } = useFreeze(gameId)
  const { user } = useUser()
  if (!data?.frozen || data.freezeAt === null) return null
  const since = formatDateTime(data.freezeAt)
  const staff = hasRole(user?.role, 'Monitor')
  return (
    <Alert
      color="cyan"
      variant="light"
      icon={<IconSnowflake aria-hidden />}
      title={t('game.freeze.title', { time: since })}
      role="status"
      data-testid="frozen-banner"
    >
      {staff ? t('game.freeze.body_staff', { time: since }) : t('game.freeze.body', { time: since })}
    </Alert>
  )
}
