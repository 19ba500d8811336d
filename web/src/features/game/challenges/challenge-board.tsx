import { gamePhase } from '@engine/game-phase.ts'
import { Button, Skeleton, Stack } from '@mantine/core'
import { useLocalStorage } from '@mantine/hooks'
import { IconChecks, IconFileText, IconFlagOff } from '@tabler/icons-react'
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { GAME_ENDED } from '@/api/error'
import type { ChallengeCategory } from '@/api/types'
import { LoadFailed } from '@/components/load-failed'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type ChallengeInfo, type GameInfo, useGameDetails } from '../api'
import { challengeHash, parseChallengeHash } from '../challenge-hash'
import { EmptyView } from '../components/empty-view'
import { Toggle } from '../components/toggle'
import { useNow } from '../use-now'
import classes from './board.module.css'
import { type CategoryChoice, CategoryFilter } from './category-filter'
import { ChallengeCard } from './challenge-card'
import { NoticePanel } from './notice-panel'
import { TeamPanel } from './team-panel'
import '@mantine/core/styles/Skeleton.css'

const ChallengeDialog = lazy(() => import('./challenge-dialog'))
const WriteupDialog = lazy(() => import('./writeup-dialog'))

/**
 * The challenge board: category filter and "hide solved" on the left, the cards, then my team
 * and the notices. The open challenge lives in the URL hash, so a link opens it.
 */
export function ChallengeBoard({ game }: { game: GameInfo }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const location = useLocation()
  const now = useNow(30_000)
  const phase = gamePhase(game.start, game.end, now)
  const { data, error, isLoading, mutate } = useGameDetails(game.id, phase === 'running')
  const [category, setCategory] = useState<CategoryChoice>('All')
  const [hideSolved, setHideSolved] = useLocalStorage({ key: 'hide-solved', defaultValue: false })
  const [justSolved, setJustSolved] = useState<Set<number>>(() => new Set())
  const [writeupOpen, setWriteupOpen] = useState(false)
  const openId = parseChallengeHash(location.hash)

  // When a challenge closes (×, Escape, Back, a solve), the keyboard goes back to its card, not to
  // the page's start: the dialog is unmounted rather than animated out, so Mantine cannot return it.
  const lastOpen = useRef<number | null>(null)
  useEffect(() => {
    const closed = lastOpen.current
    lastOpen.current = openId
    if (openId !== null || closed === null) return
    const frame = requestAnimationFrame(() => {
      const card =
        document.querySelector<HTMLElement>(`[data-challenge-id="${closed}"]`) ??
        document.querySelector<HTMLElement>('[data-challenge-id]')
      card?.focus()
    })
    return () => cancelAnimationFrame(frame)
  }, [openId])

  // A closed game answers 10002: back to its home, saying why.
  useEffect(() => {
    if (error?.status !== GAME_ENDED) return
    notify.info(error.title, t('game.denied.title'))
    navigate(paths.game(game.id), { replace: true })
  }, [error, game.id, navigate, t])

  const solvedIds = useMemo(() => {
    const ids = new Set(justSolved)
    for (const item of data?.rank?.solvedChallenges ?? []) ids.add(item.id)
    return ids
  }, [data, justSolved])

  const groups = useMemo(
    () =>
      Object.entries(data?.challenges ?? {}).filter(([, list]) => list.length > 0) as [
        ChallengeCategory,
        ChallengeInfo[],
      ][],
    [data],
  )
  const all = useMemo(() => groups.flatMap(([, list]) => list), [groups])
  const shown = all.filter(
    (c) => (category === 'All' || c.category === category) && !(hideSolved && solvedIds.has(c.id)),
  )

  const setHash = (hash: string) =>
    navigate({ pathname: location.pathname, search: location.search, hash }, { replace: true })
  const open = (challenge: ChallengeInfo) => setHash(challengeHash(challenge.id, challenge.title))
  const close = () => setHash('')

  if (isLoading && !data)
    return (
      <div className={classes.cards} aria-busy="true">
        {Array.from({ length: 8 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} height={120} radius="md" />
        ))}
      </div>
    )

  if (!data) return <LoadFailed title={t('challenge.board.error')} error={error} onRetry={() => mutate()} />

  return (
    <div className={classes.board}>
      <h2 className={classes.srOnly}>{t('challenge.board.title')}</h2>
      <Stack className={classes.rail} gap="sm">
        {data.writeupRequired && (
          <Button
            variant="light"
            leftSection={<IconFileText size={18} aria-hidden />}
            onClick={() => setWriteupOpen(true)}
          >
            {t('challenge.writeup.button')}
          </Button>
        )}
        <Toggle label={t('challenge.board.hide_solved')} checked={hideSolved} onChange={setHideSolved} />
        {groups.length > 0 && (
          <CategoryFilter
            counts={groups.map(([c, list]) => [c, list.length])}
            value={category}
            onChange={setCategory}
          />
        )}
      </Stack>
      <div className={classes.grid}>
        {all.length === 0 ? (
          <EmptyView
            icon={IconFlagOff}
            title={t('challenge.board.empty')}
            description={t('challenge.board.empty_hint')}
          />
        ) : shown.length === 0 ? (
          <EmptyView
            icon={IconChecks}
            title={t('challenge.board.all_solved')}
            description={t('challenge.board.all_solved_hint')}
          />
        ) : (
          <div className={classes.cards}>
            {shown.map((challenge) => (
              <ChallengeCard
                key={challenge.id}
                challenge={challenge}
                solved={solvedIds.has(challenge.id)}
                myTeamId={data.rank?.id}
                onOpen={open}
              />
            ))}
          </div>
        )}
      </div>
      <div className={classes.side}>
        <TeamPanel details={data} />
        <NoticePanel
          gameId={game.id}
          // A challenge opened (an organiser's switch or its scheduled time): show it now.
          onNotice={(notice) => notice.type === 'NewChallenge' && void mutate()}
        />
      </div>
      {openId !== null && (
        <Suspense fallback={null}>
          <ChallengeDialog
            key={openId}
            gameId={game.id}
            challengeId={openId}
            solved={solvedIds.has(openId)}
            practice={phase === 'ended'}
            onClose={close}
            onSolved={(id) => {
              setJustSolved((prev) => new Set(prev).add(id))
              close()
            }}
          />
        </Suspense>
      )}
      {writeupOpen && (
        <Suspense fallback={null}>
          <WriteupDialog
            gameId={game.id}
            deadline={data.writeupDeadline}
            onClose={() => setWriteupOpen(false)}
          />
        </Suspense>
      )}
    </div>
  )
}
