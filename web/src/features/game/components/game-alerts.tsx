import { Alert, Anchor } from '@mantine/core'
import {
  IconAlertTriangle,
  IconBan,
  IconClock,
  IconHourglass,
  IconUsersGroup,
  IconX,
} from '@tabler/icons-react'
import { Link } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatDuration } from '@/utils/format-date'
import type { GameAlert } from '../game-actions'

/** The alert under a game's banner for the caller's registration. */
export function GameAlertView({ alert, start, now }: { alert: GameAlert; start: number; now: number }) {
  const { t } = useTranslation()
  switch (alert) {
    case 'pending':
      return (
        <Alert color="yellow" icon={<IconHourglass aria-hidden />} title={t('game.alert.pending_title')}>
          {t('game.alert.pending')}
        </Alert>
      )
    case 'rejected':
      return (
        <Alert color="red" icon={<IconX aria-hidden />} title={t('game.alert.rejected_title')}>
          {t('game.alert.rejected')}
        </Alert>
      )
    case 'suspended':
      return (
        <Alert color="red" icon={<IconBan aria-hidden />} title={t('game.alert.suspended_title')}>
          {t('game.alert.suspended')}
        </Alert>
      )
    case 'no_team':
      return (
        <Alert color="blue" icon={<IconUsersGroup aria-hidden />} title={t('game.alert.no_team_title')}>
          {t('game.alert.no_team')}{' '}
          <Anchor component={Link} to={paths.teams}>
            {t('game.alert.no_team_link')}
          </Anchor>
        </Alert>
      )
    case 'not_started':
      return (
        <Alert color="teal" icon={<IconClock aria-hidden />} title={t('game.alert.not_started_title')}>
          {t('game.alert.not_started')}{' '}
          <span role="timer">{t('game.alert.starts_in', { time: formatDuration(start - now) })}</span>
        </Alert>
      )
    default:
      return null
  }
}

/** Shown when the game cannot be read. */
export function GameErrorAlert({ message }: { message: string }) {
  return (
    <Alert color="red" icon={<IconAlertTriangle aria-hidden />}>
      {message}
    </Alert>
  )
}
