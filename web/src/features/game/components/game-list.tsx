import { type GamePhase, gamePhase } from '@engine/game-phase.ts'
import { SimpleGrid, Skeleton, Stack, Title } from '@mantine/core'
import { IconFlagOff } from '@tabler/icons-react'
import { useState } from 'react'
import { LoadFailed } from '@/components/load-failed'
import { useTranslation } from '@/i18n'
import { type GameSummary, useGames } from '../api'
import { useNow } from '../use-now'
import { EmptyView } from './empty-view'
import { GameCard } from './game-card'
import { Pager } from './pager'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Skeleton.css'

const PAGE_SIZE = 24
const ORDER: GamePhase[] = ['running', 'upcoming', 'ended']
const COLUMNS = { base: 1, xs: 2, md: 3, xl: 4 }

/** The public games of a page grouped as running, upcoming and ended (each newest first). */
export function GameList() {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const now = useNow(30_000)
  const { data, error, isLoading, mutate } = useGames(page, PAGE_SIZE)

  if (isLoading && !data)
    return (
      <SimpleGrid cols={COLUMNS} aria-busy="true" aria-label={t('common.loading')}>
        {Array.from({ length: 6 }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
          <Skeleton key={i} height={320} radius="md" />
        ))}
      </SimpleGrid>
    )

  if (error && !data)
    return <LoadFailed title={t('game.list.error')} error={error} onRetry={() => mutate()} />

  const games = data?.data ?? []
  if (!games.length)
    return (
      <EmptyView icon={IconFlagOff} title={t('game.list.empty')} description={t('game.list.empty_hint')} />
    )

  const groups = new Map<GamePhase, GameSummary[]>(ORDER.map((p) => [p, []]))
  for (const game of games) groups.get(gamePhase(game.start, game.end, now))!.push(game)
  const pages = Math.ceil((data?.total ?? 0) / PAGE_SIZE)

  return (
    <Stack gap="xl">
      {ORDER.filter((phase) => groups.get(phase)!.length).map((phase) => (
        <section key={phase} aria-labelledby={`games-${phase}`}>
          <Title order={2} size="h3" id={`games-${phase}`} mb="sm">
            {t(`game.list.section.${phase}`)}
          </Title>
          <SimpleGrid cols={COLUMNS}>
            {groups.get(phase)!.map((game) => (
              <GameCard key={game.id} game={game} now={now} />
            ))}
          </SimpleGrid>
        </section>
      ))}
      <Pager pages={pages} page={page} onChange={setPage} />
    </Stack>
  )
}
