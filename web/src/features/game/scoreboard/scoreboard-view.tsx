import { gamePhase } from '@engine/game-phase.ts'
import { Button, Group, NativeSelect, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core'
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks'
import { IconDeviceTv, IconListNumbers, IconSearch } from '@tabler/icons-react'
import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react'
import { LoadFailed } from '@/components/load-failed'
import { hasRole, useUser } from '@/features/account/api'
import { useFeature } from '@/features/extensions/api'
import { useFreeze } from '@/features/freeze/api'
import { LiveBadge } from '@/features/live/live-badge'
import { useCatchUp, useHub } from '@/features/live/use-hub'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type ChallengeInfo, type GameInfo, type ScoreboardItem, useMyTeamId, useScoreboard } from '../api'
import { EmptyView } from '../components/empty-view'
import { Pager } from '../components/pager'
import { useNow } from '../use-now'
import { BloodLegend } from './blood-legend'
import { columnGroups, divisionsOf, filterBoard, pageOf } from './board-filter'
import { MyTeamCard } from './my-team-card'
import { ScoreboardTable } from './scoreboard-table'
import '@mantine/core/styles/Skeleton.css'

// The chart and the team dialog load when shown: phones never download the chart.
const ScoreChart = lazy(() => import('./score-chart'))
const TeamDialog = lazy(() => import('./team-dialog'))

const PAGE_SIZE = 30

/**
 * The scoreboard: the top teams' chart (wider screens), division and search filters, my team,
 * the ranking with every solve, and a team's solves in a dialog. While the game runs the user
 * hub says when the board changed (its new ETag) and the board is read again then, one
 * conditional GET; without the hub it is polled every 30 s.
 */
export function ScoreboardView({ game }: { game: GameInfo }) {
  const { t } = useTranslation()
  const now = useNow(30_000)
  const running = gamePhase(game.start, game.end, now) === 'running'
  // Spread over a second, so thousands of open boards do not all ask at the same instant.
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  const lastTag = useRef('')
  useEffect(() => () => clearTimeout(pending.current), [])
  const hub = useHub(running ? `/hub/user?game=${game.id}` : null, {
    ReceivedScoreboardChanged({ etag }: { etag: string }) {
      if (etag === lastTag.current) return
      lastTag.current = etag
      pending.current ??= setTimeout(() => {
        pending.current = undefined
        void mutate()
      }, Math.random() * 1000)
    },
  })
  const { data, error, isLoading, mutate } = useScoreboard(game.id, running, hub === 'live')
  // Back after a drop (or a server's re-sync): what was pushed meanwhile is read.
  useCatchUp(hub, () => void mutate())
  const myTeamId = useMyTeamId(game.id, game.status === 'Accepted')
  // A freeze that begins or a reveal (also after the end, when no hub is open): read again.
  const frozen = useFreeze(game.id).data?.frozen
  const staff = hasRole(useUser().user?.role, 'Monitor')
  const seenFrozen = useRef(frozen)
  useEffect(() => {
    if (seenFrozen.current === frozen) return
    seenFrozen.current = frozen
    void mutate()
  }, [frozen, mutate])
  const wide = useMediaQuery('(min-width: 48em)')
  const [division, setDivision] = useState('all')
  const [search, setSearch] = useState('')
  const [query] = useDebouncedValue(search, 300)
  const [page, setPage] = useState(1)
  const [openTeam, setOpenTeam] = useState<ScoreboardItem | null>(null)
  // Our addition: organisers open the projector view from here.
  const { user } = useUser()
  const monitor = hasRole(user?.role, 'Monitor')
  const bigScreen = useFeature('bigScreen', monitor) === true && monitor

  // A new filter starts from its first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter change is the trigger
  useEffect(() => setPage(1), [division, query])

  const items = data?.items ?? []
  const divisions = useMemo(() => divisionsOf(Object.keys(data?.timeLines ?? {}), items), [data, items])
  const groups = useMemo(() => columnGroups(data?.challenges ?? {}), [data])
  const challengeMap = useMemo(
    () => new Map<number, ChallengeInfo>(groups.flatMap((g) => g.challenges.map((c) => [c.id, c]))),
    [groups],
  )
  const filtered = useMemo(() => filterBoard(items, { division, search: query }), [items, division, query])
  const { rows, pages } = pageOf(filtered, page, PAGE_SIZE)
  const mine = items.find((item) => item.id === myTeamId)
  const lines = data?.timeLines[division] ?? data?.timeLines.all ?? []

  if (isLoading && !data)
    return (
      <Stack aria-busy="true" aria-label={t('common.loading')}>
        <Skeleton height={wide ? 300 : 60} radius="md" />
        <Skeleton height={320} radius="md" />
      </Stack>
    )

  if (!data) return <LoadFailed title={t('game.scoreboard.error')} error={error} onRetry={() => mutate()} />

  return (
    <Stack gap="md">
      {wide && lines.length > 0 && (
        <Paper withBorder radius="md" p="md" component="section" aria-labelledby="chart-heading">
          <Title order={2} size="h4" id="chart-heading" mb="xs">
            {t('game.chart.heading')}
          </Title>
          <Suspense fallback={<Skeleton height={300} />}>
            <ScoreChart lines={lines} start={game.start} end={game.end} now={now} />
          </Suspense>
        </Paper>
      )}
      {mine && <MyTeamCard team={mine} challengeCount={data.challengeCount} onOpen={setOpenTeam} />}
      <section aria-labelledby="ranking-heading">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end" gap="sm">
            <Group gap="xs">
              <Title order={2} size="h4" id="ranking-heading">
                {t('game.scoreboard.heading')}
              </Title>
              {/* A frozen board does not move for players: no "live" badge then. */}
              {running && !(frozen && !staff) && <LiveBadge state={hub} />}
              {bigScreen && (
                <Button
                  component="a"
                  href={paths.bigscreen(game.id)}
                  target="_blank"
                  rel="noopener"
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconDeviceTv size={16} aria-hidden />}
                  title={t('game.bigscreen.open_hint')}
                >
                  {t('game.bigscreen.open')}
                </Button>
              )}
            </Group>
            {/* A row of its own on phones, so the heading's badge changing width ("Connecting…",
                then "Live") does not move it, and the table under it, between rows. */}
            <Group gap="sm" align="flex-end" w={{ base: '100%', xs: 'auto' }}>
              {divisions.length > 0 && (
                <NativeSelect
                  label={t('game.scoreboard.division')}
                  value={division}
                  onChange={(e) => setDivision(e.currentTarget.value)}
                  data={[{ value: 'all', label: t('game.scoreboard.all_divisions') }, ...divisions]}
                />
              )}
              <TextInput
                label={t('game.scoreboard.search')}
                placeholder={t('game.scoreboard.search_placeholder')}
                leftSection={<IconSearch size={16} aria-hidden />}
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
                type="search"
              />
            </Group>
          </Group>
          {wide && <BloodLegend bloodBonus={data.bloodBonus} />}
          {items.length === 0 ? (
            <EmptyView icon={IconListNumbers} title={t('game.scoreboard.empty')} />
          ) : filtered.length === 0 ? (
            <EmptyView icon={IconSearch} title={t('game.scoreboard.no_match')} />
          ) : (
            <ScoreboardTable
              rows={rows}
              groups={groups}
              showDivision={divisions.length > 0}
              divisionRanks={division !== 'all'}
              myTeamId={myTeamId}
              onOpenTeam={setOpenTeam}
            />
          )}
          <Pager pages={pages} page={page} onChange={setPage} />
          <Text size="xs" c="dimmed">
            {t('game.scoreboard.updated', {
              time: formatDateTime(data.updateTimeUtc, { timeStyle: 'medium' }),
            })}
          </Text>
        </Stack>
      </section>
      {openTeam && (
        <Suspense fallback={null}>
          <TeamDialog
            team={openTeam}
            challenges={challengeMap}
            challengeCount={data.challengeCount}
            onClose={() => setOpenTeam(null)}
          />
        </Suspense>
      )}
    </Stack>
  )
}
