import { gamePhase } from '@engine/game-phase.ts'
import { Center, Loader } from '@mantine/core'
import { IconDeviceTv, IconDroplet } from '@tabler/icons-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useFeature } from '@/features/extensions/api'
import { type GameInfo, type ScoreboardItem, useGame, useScoreboard } from '@/features/game/api'
import { LINE_COLORS } from '@/features/game/scoreboard/chart-plot'
import { useNow } from '@/features/game/use-now'
import { usePageTitle } from '@/features/info/use-page-title'
import { useCatchUp, useHub } from '@/features/live/use-hub'
import { useTranslation } from '@/i18n'
import { formatDateTime, formatDuration } from '@/utils/format-date'
import { BigChart } from './big-chart'
import classes from './bigscreen.module.css'
import { type BloodEntry, freshKeys, latestBloods } from './bloods'
import { useAutoScroll } from './use-auto-scroll'

/** Teams shown in large rows; the rest scroll by below them. */
const TOP = 10
/** Bloods listed: as many as fit below the chart at 16:9. */
const BLOODS = 6
/** How long a blood that just came in stays highlighted. */
const FRESH_MS = 15_000

function NotAvailable() {
  const { t } = useTranslation()
  usePageTitle(t('bigscreen.title'))
  return (
    <main className={classes.unavailable}>
      <IconDeviceTv size="3em" stroke={1.4} aria-hidden />
      <h1>{t('bigscreen.not_available')}</h1>
      <p>{t('bigscreen.not_available_hint')}</p>
    </main>
  )
}

function Row({ item, color, big }: { item: ScoreboardItem; color?: string; big?: boolean }) {
  return (
    <li className={big ? classes.topRow : classes.row} data-rank={item.rank <= 3 ? item.rank : undefined}>
      <span className={classes.rank}>{item.rank}</span>
      <span className={classes.swatch} style={color ? { background: color } : undefined} aria-hidden />
      <span className={classes.name}>{item.name}</span>
      <span className={classes.solved}>{item.solvedCount}</span>
      <span className={classes.score}>{item.score}</span>
    </li>
  )
}

function Bloods({ bloods, fresh }: { bloods: BloodEntry[]; fresh: ReadonlySet<string> }) {
  const { t } = useTranslation()
  return (
    <section className={classes.bloods} aria-labelledby="bs-bloods">
      <h2 id="bs-bloods" className={classes.heading}>
        {t('bigscreen.bloods')}
      </h2>
      {bloods.length === 0 ? (
        <p className={classes.muted}>{t('bigscreen.no_bloods')}</p>
      ) : (
        <ol className={classes.bloodList}>
          {bloods.map((b) => (
            <li
              key={b.key}
              className={classes.blood}
              data-place={b.place}
              data-fresh={fresh.has(b.key) || undefined}
            >
              <IconDroplet className={classes.drop} aria-hidden />
              <span className={classes.bloodText}>
                <span className={classes.place}>{t(`bigscreen.place.${b.place}`)}</span>
                <strong className={classes.bloodTeam}>{b.team}</strong>
                <span className={classes.bloodChallenge}>{b.challenge}</span>
              </span>
              <time className={classes.bloodTime} dateTime={new Date(b.time).toISOString()}>
                {formatDateTime(b.time, { dateStyle: undefined, timeStyle: 'short' })}
              </time>
            </li>
          ))}
        </ol>
      )}
    </section>
  )
}

/** The board for the projector: read-only, large, and moving by itself. */
function Board({ game }: { game: GameInfo }) {
  const { t } = useTranslation()
  usePageTitle(`${t('bigscreen.title')} · ${game.title}`)
  const now = useNow(1000)
  const phase = gamePhase(game.start, game.end, now)
  const running = phase === 'running'
  const lastTag = useRef('')
  const pending = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => () => clearTimeout(pending.current), [])
  // The scoreboard's own live path: the hub says the board changed, the board is read again.
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
  const { data, mutate } = useScoreboard(game.id, running, hub === 'live')
  // Back after a drop (or a server's re-sync): what was pushed meanwhile is read.
  useCatchUp(hub, () => void mutate())
  const items = data?.items ?? []
  const lines = data?.timeLines.all ?? []
  const colorOf = useMemo(
    () => new Map(lines.map((l, i) => [l.id, LINE_COLORS[i % LINE_COLORS.length]])),
    [lines],
  )
  const bloods = useMemo(() => latestBloods(data?.challenges ?? {}, BLOODS), [data])

  // Bloods that arrive while the screen is up are highlighted for a while, and read out.
  const seen = useRef<Set<string> | null>(null)
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set())
  const [announce, setAnnounce] = useState('')
  useEffect(() => {
    if (!data) return
    const arrived = freshKeys(seen.current, bloods)
    seen.current = new Set([...(seen.current ?? []), ...bloods.map((b) => b.key)])
    if (!arrived.length) return
    setFresh((s) => new Set([...s, ...arrived]))
    const first = bloods.find((b) => b.key === arrived[0])!
    setAnnounce(
      t('bigscreen.announce', {
        place: t(`bigscreen.place.${first.place}`),
        team: first.team,
        challenge: first.challenge,
      }),
    )
    const timer = setTimeout(
      () => setFresh((s) => new Set([...s].filter((k) => !arrived.includes(k)))),
      FRESH_MS,
    )
    return () => clearTimeout(timer)
  }, [data, bloods, t])

  const restRef = useRef<HTMLOListElement>(null)
  const rest = items.slice(TOP)
  useAutoScroll(restRef, rest.length > 0)

  const status =
    phase === 'upcoming'
      ? t('bigscreen.starts_in', { time: formatDuration(game.start - now) })
      : phase === 'running'
        ? t('bigscreen.ends_in', { time: formatDuration(game.end - now) })
        : t('bigscreen.ended')

  return (
    <main className={classes.screen}>
      <header className={classes.header}>
        <h1 className={classes.title}>{game.title}</h1>
        <div className={classes.status}>
          <span className={classes.clock} role="timer">
            {status}
          </span>
          {running && (
            <span className={classes.live} data-live={hub === 'live' || undefined}>
              {hub === 'live' ? t('bigscreen.live') : t('bigscreen.polling')}
            </span>
          )}
        </div>
      </header>
      {!data ? (
        <Center>
          <Loader size="xl" aria-label={t('bigscreen.loading')} />
        </Center>
      ) : (
        <div className={classes.body}>
          <section className={classes.ranking} aria-labelledby="bs-ranking">
            <div className={classes.columns}>
              <h2 id="bs-ranking" className={classes.heading}>
                {t('bigscreen.ranking')}
              </h2>
              <span aria-hidden className={classes.colLabel}>
                {t('bigscreen.solved')}
              </span>
              <span aria-hidden className={classes.colLabel}>
                {t('bigscreen.score')}
              </span>
            </div>
            {items.length === 0 ? (
              <p className={classes.muted}>{t('bigscreen.no_teams')}</p>
            ) : (
              <ol
                className={classes.top}
                aria-label={t('bigscreen.top', { count: Math.min(TOP, items.length) })}
              >
                {items.slice(0, TOP).map((item) => (
                  <Row key={item.id} item={item} color={colorOf.get(item.id)} big />
                ))}
              </ol>
            )}
            {rest.length > 0 && (
              <ol className={classes.rest} ref={restRef} aria-label={t('bigscreen.rest')} start={TOP + 1}>
                {rest.map((item) => (
                  <Row key={item.id} item={item} color={colorOf.get(item.id)} />
                ))}
              </ol>
            )}
          </section>
          <div className={classes.side}>
            <section className={classes.chartBox} aria-labelledby="bs-chart">
              <h2 id="bs-chart" className={classes.heading}>
                {t('bigscreen.chart_heading')}
              </h2>
              {lines.length > 0 ? (
                <BigChart lines={lines} start={game.start} end={game.end} now={now} />
              ) : (
                <p className={classes.muted}>{t('bigscreen.no_solves')}</p>
              )}
            </section>
            <Bloods bloods={bloods} fresh={fresh} />
          </div>
        </div>
      )}
      <footer className={classes.footer}>
        {data &&
          t('bigscreen.updated', { time: formatDateTime(data.updateTimeUtc, { timeStyle: 'medium' }) })}
      </footer>
      <div className={classes.srOnly} aria-live="polite">
        {announce}
      </div>
    </main>
  )
}

/**
 * The projector's scoreboard (`/games/:id/bigscreen`): the public board, so it shows what
 * players see. "Not available" while the big screen is switched off, or for a game the visitor
 * may not see.
 */
export function BigScreen({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const enabled = useFeature('bigScreen')
  const { data: game, error } = useGame(enabled ? gameId : 0)
  if (enabled === false || error) return <NotAvailable />
  if (!game)
    return (
      <Center mih="100vh">
        <Loader size="xl" aria-label={t('bigscreen.loading')} />
      </Center>
    )
  return <Board game={game} />
}
