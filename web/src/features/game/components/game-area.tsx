import { gamePhase } from '@engine/game-phase.ts'
import { Anchor, Button, Center, Loader, Stack, Title } from '@mantine/core'
import {
  type Icon,
  IconDeviceDesktopAnalytics,
  IconFlag,
  IconFlagQuestion,
  IconListNumbers,
} from '@tabler/icons-react'
import { type ReactNode, useEffect } from 'react'
import { Link, useLocation, useNavigate } from 'react-router'
import { hasRole, useUser } from '@/features/account/api'
import { FrozenBanner } from '@/features/freeze/components/frozen-banner'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { useGame } from '../api'
import { areaDenial, type GameTab, visibleTabs } from '../game-actions'
import { useNow } from '../use-now'
import { GameCountdown } from './countdown'
import { EmptyView } from './empty-view'
import classes from './game-area.module.css'

const TAB_ICON: Record<GameTab, Icon> = {
  challenges: IconFlag,
  scoreboard: IconListNumbers,
  monitor: IconDeviceDesktopAnalytics,
}

const tabHref = (id: number, tab: GameTab) =>
  tab === 'challenges'
    ? paths.challenges(id)
    : tab === 'scoreboard'
      ? paths.scoreboard(id)
      : paths.monitor(id)

/** Which tab a path under `/games/:id/` belongs to. */
export function tabOf(pathname: string): GameTab {
  const part = pathname.split('/')[3]?.toLowerCase()
  return part === 'challenges' || part === 'monitor' ? part : 'scoreboard'
}

/**
 * The frame of `/games/:id/*`: the game's title, a live countdown, the tabs the caller may use,
 * and the guard that sends them back to the game's home (with the reason) when they may not be
 * here: before the start, or on the challenges without an accepted team.
 */
export function GameArea({ id, children }: { id: number; children: ReactNode }) {
  const { t } = useTranslation()
  const { data: game, isLoading } = useGame(id)
  const { user, isLoading: userLoading } = useUser()
  const { pathname } = useLocation()
  const navigate = useNavigate()
  const now = useNow()
  const tab = tabOf(pathname)

  const access = game && {
    phase: gamePhase(game.start, game.end, now),
    practiceMode: game.practiceMode,
    status: game.status,
    monitor: hasRole(user?.role, 'Monitor'),
  }
  const denial = access && !userLoading ? areaDenial(tab, access) : null

  useEffect(() => {
    if (!denial) return
    notify.info(t(`game.denied.${denial}`), t('game.denied.title'))
    navigate(paths.game(id), { replace: true })
  }, [denial, id, navigate, t])

  if ((isLoading && !game) || userLoading || denial)
    return (
      <Center mih="40vh">
        <Loader aria-label={t('common.loading')} />
      </Center>
    )

  if (!game || !access)
    return (
      <EmptyView icon={IconFlagQuestion} title={t('game.home.not_found')} mih="50vh">
        <Button component={Link} to={paths.games} variant="light">
          {t('game.home.back_to_games')}
        </Button>
      </EmptyView>
    )

  const tabs = visibleTabs(access)
  return (
    <Stack gap="md">
      <div className={classes.head}>
        <Title order={1} size="h2" className={classes.title}>
          <Anchor component={Link} to={paths.game(id)} inherit c="inherit" underline="hover">
            {game.title}
          </Anchor>
        </Title>
        <div className={classes.clock}>
          <GameCountdown start={game.start} end={game.end} now={now} />
        </div>
      </div>
      <nav className={classes.tabs} aria-label={t('game.area.tabs')}>
        {tabs.map((item) => {
          const ItemIcon = TAB_ICON[item]
          return (
            <Link
              key={item}
              to={tabHref(id, item)}
              className={classes.tab}
              aria-current={item === tab ? 'page' : undefined}
            >
              <ItemIcon size={18} aria-hidden />
              {t(`game.area.tab.${item}`)}
            </Link>
          )
        })}
      </nav>
      <FrozenBanner gameId={id} />
      {children}
    </Stack>
  )
}
