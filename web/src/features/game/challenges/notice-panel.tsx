import { Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core'
import { notifications } from '@mantine/notifications'
import {
  type Icon,
  IconBell,
  IconBulb,
  IconHexagonNumber1Filled,
  IconHexagonNumber2Filled,
  IconHexagonNumber3Filled,
  IconPlus,
  IconSpeakerphone,
} from '@tabler/icons-react'
import { useEffect, useMemo, useState } from 'react'
import type { NoticeType } from '@/api/types'
import { Markdown } from '@/components/markdown'
import { LiveBadge } from '@/features/live/live-badge'
import { epochOf, useHub } from '@/features/live/use-hub'
import { t as translate, useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type GameNotice, useNotices } from '../api'
import { ChoiceGroup } from '../components/choice-group'
import { filterNotices, type NoticeFilter, sortNotices } from '../notices'
import '@mantine/core/styles/Skeleton.css'

const ICON: Record<NoticeType, { icon: Icon; color: string }> = {
  Normal: { icon: IconSpeakerphone, color: 'var(--mantine-primary-color-light-color)' },
  FirstBlood: { icon: IconHexagonNumber1Filled, color: '#e0a526' },
  SecondBlood: { icon: IconHexagonNumber2Filled, color: '#9aa4b1' },
  ThirdBlood: { icon: IconHexagonNumber3Filled, color: '#c0793a' },
  NewHint: { icon: IconBulb, color: 'var(--mantine-color-yellow-light-color)' },
  NewChallenge: { icon: IconPlus, color: 'var(--mantine-color-green-light-color)' },
}

const FILTERS: NoticeFilter[] = ['all', 'game', 'bloods', 'challenges']
const isBlood = (type: NoticeType) => type === 'FirstBlood' || type === 'SecondBlood' || type === 'ThirdBlood'

/** A notice as a sentence (organisers' notices are Markdown, rendered by the caller). */
function noticeText(notice: GameNotice): string {
  const [first = '', second = ''] = notice.values
  switch (notice.type) {
    case 'FirstBlood':
    case 'SecondBlood':
    case 'ThirdBlood':
      return translate(`challenge.notice.${notice.type}`, { team: first, challenge: second })
    case 'NewHint':
      return translate('challenge.notice.NewHint', { challenge: first })
    case 'NewChallenge':
      return translate('challenge.notice.NewChallenge', { challenge: first })
    default:
      return first
  }
}

/** The game's notices, organisers' first, filterable by kind. */
export function NoticePanel({
  gameId,
  onNotice,
}: {
  gameId: number
  /** Hears each notice pushed while the screen is open (the board re-reads its list on a new challenge). */
  onNotice?: (notice: GameNotice) => void
}) {
  const { t } = useTranslation()
  const [filter, setFilter] = useState<NoticeFilter>('all')
  // Notices that arrived while the screen was open: bloods among them are highlighted.
  const [fresh, setFresh] = useState<ReadonlySet<number>>(new Set())
  const hub = useHub(`/hub/user?game=${gameId}`, {
    ReceivedGameNotice(pushed: GameNotice) {
      const notice = { ...pushed, time: epochOf(pushed.time) }
      void mutate((list) => [notice, ...(list ?? []).filter((n) => n.id !== notice.id)], {
        revalidate: false,
      })
      setFresh((ids) => new Set(ids).add(notice.id))
      onNotice?.(notice)
      const { icon: NoticeIcon, color } = ICON[notice.type]
      notifications.show({
        color: isBlood(notice.type) ? 'yellow' : 'blue',
        icon: <NoticeIcon size={18} aria-hidden color={isBlood(notice.type) ? color : undefined} />,
        title: translate('challenge.notice.title'),
        message:
          notice.type === 'Normal' ? <Markdown source={notice.values[0] ?? ''} inline /> : noticeText(notice),
      })
    },
  })
  const { data, error, mutate } = useNotices(gameId, hub === 'live')
  // Whatever was posted while the connection was down is read once it is back.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the connection coming up is the trigger
  useEffect(() => {
    if (hub === 'live') void mutate()
  }, [hub])
  const notices = useMemo(() => filterNotices(sortNotices(data ?? []), filter), [data, filter])

  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="notices-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs">
          <Title order={2} size="h4" id="notices-title">
            {t('challenge.notice.title')}
          </Title>
          <LiveBadge state={hub} />
        </Group>
        <ChoiceGroup
          label={t('challenge.notice.filter.label')}
          value={filter}
          onChange={setFilter}
          options={FILTERS.map((f) => ({ value: f, label: t(`challenge.notice.filter.${f}`) }))}
        />
        {!data && !error ? (
          <Stack gap={6} aria-busy="true" aria-label={t('common.loading')}>
            <Skeleton height={14} />
            <Skeleton height={14} width="80%" />
          </Stack>
        ) : error && !data ? (
          <Text size="sm" c="red">
            {error.title}
          </Text>
        ) : notices.length === 0 ? (
          <Stack align="center" gap={4} py="md">
            <IconBell size={28} stroke={1.4} aria-hidden color="var(--mantine-color-dimmed)" />
            <Text size="sm" c="dimmed">
              {t('challenge.notice.empty')}
            </Text>
          </Stack>
        ) : (
          <Stack
            component="ul"
            gap="sm"
            m={0}
            p={0}
            style={{ listStyle: 'none', maxHeight: '28rem', overflowY: 'auto' }}
            tabIndex={0}
            aria-label={t('challenge.notice.list')}
          >
            {notices.map((notice) => {
              const { icon: NoticeIcon, color } = ICON[notice.type]
              return (
                <li
                  key={notice.id}
                  data-blood={isBlood(notice.type) && fresh.has(notice.id) ? '' : undefined}
                  style={{
                    display: 'flex',
                    gap: 8,
                    ...(isBlood(notice.type) && fresh.has(notice.id)
                      ? { background: 'var(--mantine-color-yellow-light)', borderRadius: 4, padding: 4 }
                      : {}),
                  }}
                >
                  <NoticeIcon size={18} color={color} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                  <div style={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                    <Text size="sm" component="div">
                      {notice.type === 'Normal' ? (
                        <Markdown source={notice.values[0] ?? ''} inline />
                      ) : (
                        noticeText(notice)
                      )}
                    </Text>
                    <Text size="xs" c="dimmed">
                      <time dateTime={new Date(notice.time).toISOString()}>
                        {formatDateTime(notice.time)}
                      </time>
                    </Text>
                  </div>
                </li>
              )
            })}
          </Stack>
        )}
      </Stack>
    </Paper>
  )
}
