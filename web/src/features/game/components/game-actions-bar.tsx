import { Anchor, Button, Group, Stack, Text } from '@mantine/core'
import {
  IconDeviceDesktopAnalytics,
  IconDoorExit,
  IconFlag,
  IconListNumbers,
  IconUserPlus,
} from '@tabler/icons-react'
import { lazy, Suspense, useId, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { confirm } from '@/components/confirm'
import { loginHref, paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type GameInfo, type MyTeam, useLeaveGame } from '../api'
import type { GameActions } from '../game-actions'

const JoinDialog = lazy(() => import('./join-dialog'))

const JOIN_LABEL = {
  Unsubmitted: 'game.action.join',
  Rejected: 'game.action.join_again',
  Pending: 'game.action.pending',
  Accepted: 'game.action.joined',
  Suspended: 'game.action.suspended',
} as const

/** The buttons of a game's home, by the caller's registration (see `gameActions`). */
export function GameActionsBar({
  game,
  actions,
  teams,
  monitor,
}: {
  game: GameInfo
  actions: GameActions
  teams: MyTeam[]
  monitor: boolean
}) {
  const { t } = useTranslation()
  const location = useLocation()
  const leave = useLeaveGame(game.id)
  const [joining, setJoining] = useState(false)
  const reasonId = useId()
  const { joinBlock } = actions

  const startJoin = async () => {
    const agreed = await confirm({
      title: t('game.join.rules_title'),
      message: (
        <Stack gap="xs">
          <Text>{t('game.join.rule_team')}</Text>
          <Text>{t('game.join.rule_fair')}</Text>
          <Text>{t('game.join.rule_review')}</Text>
        </Stack>
      ),
      confirmLabel: t('game.join.agree'),
    })
    if (agreed) setJoining(true)
  }

  const startLeave = async () => {
    const sure = await confirm({
      title: t('game.leave.title'),
      message: t('game.leave.message', { title: game.title }),
      confirmLabel: t('game.leave.confirm'),
      danger: true,
    })
    if (!sure) return
    try {
      await notify.pending(leave(), { pending: t('game.leave.pending'), success: t('game.leave.done') })
    } catch {}
  }

  return (
    <Stack gap={6}>
      <Group gap="sm">
        <Button
          leftSection={<IconUserPlus size={18} aria-hidden />}
          disabled={joinBlock !== null}
          onClick={startJoin}
          aria-describedby={joinBlock && joinBlock !== 'joined' ? reasonId : undefined}
        >
          {t(JOIN_LABEL[game.status])}
        </Button>
        {actions.leave && (
          <Button
            variant="light"
            color="red"
            leftSection={<IconDoorExit size={18} aria-hidden />}
            onClick={startLeave}
          >
            {t('game.action.leave')}
          </Button>
        )}
        {actions.challenges && (
          <Button
            component={Link}
            to={paths.challenges(game.id)}
            variant="filled"
            color="teal"
            leftSection={<IconFlag size={18} aria-hidden />}
          >
            {t('game.action.challenges')}
          </Button>
        )}
        {actions.scoreboard && (
          <Button
            component={Link}
            to={paths.scoreboard(game.id)}
            variant="light"
            leftSection={<IconListNumbers size={18} aria-hidden />}
          >
            {t('game.action.scoreboard')}
          </Button>
        )}
        {monitor && actions.scoreboard && (
          <Button
            component={Link}
            to={paths.monitor(game.id)}
            variant="subtle"
            leftSection={<IconDeviceDesktopAnalytics size={18} aria-hidden />}
          >
            {t('game.action.monitor')}
          </Button>
        )}
      </Group>
      {joinBlock && joinBlock !== 'joined' && (
        <Text size="sm" c="dimmed" id={reasonId}>
          {joinBlock === 'login' ? (
            <Anchor component={Link} to={loginHref(location.pathname)}>
              {t('game.join_block.login')}
            </Anchor>
          ) : (
            t(`game.join_block.${joinBlock}`)
          )}
        </Text>
      )}
      {joining && (
        <Suspense fallback={null}>
          <JoinDialog game={game} teams={teams} onClose={() => setJoining(false)} />
        </Suspense>
      )}
    </Stack>
  )
}
