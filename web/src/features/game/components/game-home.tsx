import { gamePhase } from '@engine/game-phase.ts'
import { Button, Paper, Skeleton, Stack } from '@mantine/core'
import { IconFlagQuestion } from '@tabler/icons-react'
import { Link } from 'react-router'
import { LoadFailed } from '@/components/load-failed'
import { Markdown } from '@/components/markdown'
import { hasRole, useUser } from '@/features/account/api'
import { FrozenBanner } from '@/features/freeze/components/frozen-banner'
import { usePageTitle } from '@/features/info/use-page-title'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { useGame, useMyTeams } from '../api'
import { gameActions } from '../game-actions'
import { useNow } from '../use-now'
import { EmptyView } from './empty-view'
import { GameActionsBar } from './game-actions-bar'
import { GameAlertView } from './game-alerts'
import { GameBanner } from './game-banner'
import '@mantine/core/styles/Skeleton.css'

/** A game's home: banner with the actions for the caller's registration, alerts, the content. */
export function GameHome({ id }: { id: number }) {
  const { t } = useTranslation()
  const { data: game, error, isLoading, mutate } = useGame(id)
  const { user } = useUser()
  const { data: teams } = useMyTeams(Boolean(user))
  const now = useNow()
  usePageTitle(game?.title ?? t('game.home.title'))

  if (isLoading && !game)
    return (
      <Stack aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={260} radius="md" />
        <Skeleton height={16} width="60%" />
        <Skeleton height={16} width="80%" />
      </Stack>
    )

  if (!game)
    return error?.httpStatus === 404 || !error ? (
      <EmptyView icon={IconFlagQuestion} title={t('game.home.not_found')} mih="50vh">
        <Button component={Link} to={paths.games} variant="light">
          {t('game.home.back_to_games')}
        </Button>
      </EmptyView>
    ) : (
      <LoadFailed title={t('game.home.error')} error={error} onRetry={() => mutate()} />
    )

  const phase = gamePhase(game.start, game.end, now)
  const actions = gameActions({
    phase,
    practiceMode: game.practiceMode,
    status: game.status,
    signedIn: Boolean(user),
    // Until the teams arrive, assume one rather than flash "you need a team".
    teamCount: user ? (teams?.length ?? 1) : 0,
  })

  return (
    <Stack gap="lg">
      <GameBanner game={game} now={now}>
        <GameActionsBar
          game={game}
          actions={actions}
          teams={teams ?? []}
          monitor={hasRole(user?.role, 'Monitor')}
        />
      </GameBanner>
      <GameAlertView alert={actions.alert} start={game.start} now={now} />
      <FrozenBanner gameId={game.id} />
      {game.content.trim() && (
        <Paper
          withBorder
          radius="md"
          p={{ base: 'md', sm: 'xl' }}
          component="section"
          aria-label={t('game.home.content')}
        >
          <Markdown source={game.content} />
        </Paper>
      )}
    </Stack>
  )
}
