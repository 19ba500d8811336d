import { Group, Paper, Skeleton, Stack, Switch, Text, Title } from '@mantine/core'
import { useLocalStorage } from '@mantine/hooks'
import {
  type Icon,
  IconAlertTriangle,
  IconBox,
  IconBoxOff,
  IconFlag,
  IconInfoCircle,
  IconListDetails,
  IconPlugConnectedX,
} from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import type { EventType } from '@/api/types'
import { LiveBadge } from '@/features/live/live-badge'
import { epochOf, prependRows, useBatched, useCatchUp, useHub } from '@/features/live/use-hub'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type GameEvent, useGameEvents } from '../api'
import { EmptyView } from '../components/empty-view'
import { eventMessage } from './event-text'
import { StepPager } from './step-pager'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Skeleton.css'

const PAGE_SIZE = 30

const LOOK: Record<EventType, { icon: Icon; color: string }> = {
  FlagSubmit: { icon: IconFlag, color: 'var(--mantine-color-blue-light-color)' },
  ContainerStart: { icon: IconBox, color: 'var(--mantine-color-teal-light-color)' },
  ContainerDestroy: { icon: IconBoxOff, color: 'var(--mantine-color-gray-light-color)' },
  CheatDetected: { icon: IconAlertTriangle, color: 'var(--mantine-color-red-light-color)' },
  Normal: { icon: IconInfoCircle, color: 'var(--mantine-color-dimmed)' },
}

function EventRow({ event }: { event: GameEvent }) {
  const { t } = useTranslation()
  const { key, values } = eventMessage(event)
  const accepted = event.type === 'FlagSubmit' && event.values[0] === 'Accepted'
  const { icon: EventIcon, color } = LOOK[event.type] ?? LOOK.Normal
  return (
    <Paper component="li" withBorder radius="md" p="sm">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <EventIcon
          size={20}
          aria-hidden
          color={accepted ? 'var(--mantine-color-green-light-color)' : color}
          style={{ flexShrink: 0, marginTop: 2 }}
        />
        <div style={{ minWidth: 0, flex: 1 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {t(key, values)}
          </Text>
          <Text size="xs" c="dimmed">
            <time dateTime={new Date(event.time).toISOString()}>
              {formatDateTime(event.time, { timeStyle: 'medium' })}
            </time>
          </Text>
        </div>
      </Group>
    </Paper>
  )
}

const CONTAINER_EVENTS: EventType[] = ['ContainerStart', 'ContainerDestroy']

/**
 * The game's event log, newest first, 30 a page; container events can be hidden (remembered).
 * New events stream in from the monitor hub onto the first page; older pages stay still.
 */
export function EventsView({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const [hideContainer, setHideContainer] = useLocalStorage({
    key: 'hide-container-events',
    defaultValue: false,
  })
  const [page, setPage] = useState(1)
  const arrive = useBatched<GameEvent>((events) => {
    const shown = events.filter((e) => !(hideContainer && CONTAINER_EVENTS.includes(e.type)))
    if (page === 1 && shown.length)
      void mutate((rows) => prependRows(rows, shown, PAGE_SIZE), { revalidate: false })
  })
  const hub = useHub(`/hub/monitor?game=${gameId}`, {
    ReceivedGameEvent(e: GameEvent) {
      arrive({ ...e, time: epochOf(e.time) })
    },
  })
  const { data, error, isLoading, mutate } = useGameEvents(
    gameId,
    hideContainer,
    page,
    PAGE_SIZE,
    hub === 'live',
  )
  // Back after a drop (or a server's re-sync): what was pushed meanwhile is read.
  useCatchUp(hub, () => void mutate())
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter change is the trigger
  useEffect(() => setPage(1), [hideContainer])

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="sm">
        <Group gap="xs">
          <Title order={2} size="h4">
            {t('game.monitor.tab.events')}
          </Title>
          <LiveBadge state={hub} />
        </Group>
        <Switch
          label={t('game.monitor.hide_container')}
          checked={hideContainer}
          onChange={(e) => setHideContainer(e.currentTarget.checked)}
        />
      </Group>
      {isLoading && !data ? (
        <Stack aria-busy="true" aria-label={t('common.loading')}>
          {[1, 2, 3].map((i) => (
            <Skeleton key={i} height={56} radius="md" />
          ))}
        </Stack>
      ) : !data ? (
        <EmptyView icon={IconPlugConnectedX} title={t('game.monitor.error')} description={error?.title} />
      ) : data.length === 0 ? (
        <EmptyView icon={IconListDetails} title={t('game.monitor.no_events')} />
      ) : (
        <Stack
          component="ol"
          gap="xs"
          m={0}
          p={0}
          style={{ listStyle: 'none' }}
          aria-label={t('game.monitor.tab.events')}
        >
          {data.map((event, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: events carry no id; the page is replaced as a whole
            <EventRow key={`${event.time}-${i}`} event={event} />
          ))}
        </Stack>
      )}
      <StepPager page={page} hasNext={(data?.length ?? 0) >= PAGE_SIZE} onChange={setPage} />
    </Stack>
  )
}
