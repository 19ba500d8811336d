import {
  ActionIcon,
  Badge,
  Box,
  Button,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core'
import { IconChevronLeft, IconChevronRight, IconFileText, IconRefresh } from '@tabler/icons-react'
import { useState } from 'react'
import { TaskStatusValues } from '@/api/schema.gen'
import { DataState } from '@/components/data-state'
import { LiveBadge } from '@/features/live/live-badge'
import { epochOf, prependRows, useBatched, useCatchUp, useHub } from '@/features/live/use-hub'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import {
  LOG_LEVELS,
  type LogLevel,
  levelColor,
  logKeys,
  mayHaveMore,
  RECORD_PAGE,
  statusColor,
} from '../../admin-lists'
import { type LogEntry, useLogs } from '../../logs-api'
import classes from './records.module.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Table.css'

const TIME: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'medium' }

function Level({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation()
  const level = entry.level ?? ''
  return (
    <Badge size="sm" variant="light" color={levelColor(level)}>
      {LOG_LEVELS.includes(level as LogLevel) ? t(`admin.logs.level.${level}`) : level || '—'}
    </Badge>
  )
}

function Status({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation()
  if (!entry.status)
    return (
      <Text span c="dimmed" size="sm">
        —
      </Text>
    )
  return (
    <Badge size="sm" variant="dot" color={statusColor(entry.status)}>
      {(TaskStatusValues as readonly string[]).includes(entry.status)
        ? t(`admin.logs.status.${entry.status}`)
        : entry.status}
    </Badge>
  )
}

/**
 * The platform log, newest first, 50 a page, filtered by level. The server gives no total, so
 * "next" is offered after a full page. The first page refreshes every 10 s; others stay still.
 */
export function LogList() {
  const { t } = useTranslation()
  const [level, setLevel] = useState<LogLevel>('All')
  const [page, setPage] = useState(1)
  // New records stream in from the admin hub onto the first page; older pages stay still.
  const arrive = useBatched<LogEntry>((records) => {
    const shown = records.filter((r) => level === 'All' || r.level === level)
    if (page === 1 && shown.length)
      void mutate((list) => prependRows(list, shown, RECORD_PAGE), { revalidate: false })
  })
  const hub = useHub('/hub/admin', {
    ReceivedLog(r: LogEntry) {
      arrive({ ...r, time: epochOf(r.time) })
    },
  })
  const { data, error, isLoading, isValidating, mutate } = useLogs(level, page, hub === 'live')
  // Back after a drop (or a server's re-sync): what was pushed meanwhile is read.
  useCatchUp(hub, () => void mutate())
  const entries = data ?? []
  const keys = logKeys(entries)
  const more = mayHaveMore(entries.length, RECORD_PAGE)
  const first = (page - 1) * RECORD_PAGE + 1

  const pager = (
    <Group justify="space-between" component="nav" aria-label={t('admin.logs.pages')}>
      <Button
        variant="default"
        size="xs"
        leftSection={<IconChevronLeft size={14} aria-hidden />}
        disabled={page === 1}
        onClick={() => setPage((p) => Math.max(1, p - 1))}
      >
        {t('admin.logs.newer')}
      </Button>
      <Text size="sm" c="dimmed">
        {t('admin.logs.page', { page })}
      </Text>
      <Button
        variant="default"
        size="xs"
        rightSection={<IconChevronRight size={14} aria-hidden />}
        disabled={!more}
        onClick={() => setPage((p) => p + 1)}
      >
        {t('admin.logs.older')}
      </Button>
    </Group>
  )

  return (
    <Stack gap="md">
      <Group gap="sm">
        <Title order={1} size="h2">
          {t('admin.logs.title')}
        </Title>
        <LiveBadge state={hub} />
      </Group>
      <Group justify="space-between" align="flex-end" gap="sm">
        <NativeSelect
          label={t('admin.logs.level_label')}
          value={level}
          onChange={(e) => {
            setLevel(e.currentTarget.value as LogLevel)
            setPage(1)
          }}
          data={LOG_LEVELS.map((l) => ({ value: l, label: t(`admin.logs.level.${l}`) }))}
          w={{ base: '100%', xs: 220 }}
        />
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c="dimmed">
            {page === 1 ? t('admin.logs.live') : t('admin.logs.paused')}
          </Text>
          <ActionIcon
            variant="default"
            size="lg"
            loading={isValidating}
            onClick={() => mutate()}
            aria-label={t('admin.logs.refresh')}
            title={t('admin.logs.refresh')}
          >
            <IconRefresh size={18} aria-hidden />
          </ActionIcon>
        </Group>
      </Group>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={entries.length === 0 && page === 1}
        empty={{ icon: IconFileText, title: t('admin.logs.none') }}
      >
        <Text size="sm" c="dimmed">
          {entries.length
            ? t('admin.logs.count', { from: first, to: first + entries.length - 1 })
            : t('admin.logs.none_older')}
        </Text>
        <Table.ScrollContainer minWidth={880} visibleFrom="md" type="native">
          <Table striped highlightOnHover verticalSpacing={6} fz="sm">
            <Table.Caption>
              <VisuallyHidden>{t('admin.logs.table')}</VisuallyHidden>
            </Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('admin.logs.col.time')}</Table.Th>
                <Table.Th scope="col">{t('admin.logs.col.level')}</Table.Th>
                <Table.Th scope="col">{t('admin.logs.col.user')}</Table.Th>
                <Table.Th scope="col">{t('admin.logs.col.ip')}</Table.Th>
                <Table.Th scope="col">{t('admin.logs.col.message')}</Table.Th>
                <Table.Th scope="col">{t('admin.logs.col.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {entries.map((entry, i) => (
                <Table.Tr key={keys[i]}>
                  <Table.Td className={classes.nowrap}>{formatDateTime(entry.time, TIME)}</Table.Td>
                  <Table.Td>
                    <Level entry={entry} />
                  </Table.Td>
                  <Table.Td className={classes.wrap}>{entry.name ?? '—'}</Table.Td>
                  <Table.Td className={classes.mono}>{entry.ip ?? '—'}</Table.Td>
                  <Table.Td className={classes.message}>{entry.msg ?? ''}</Table.Td>
                  <Table.Td>
                    <Status entry={entry} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        <Box component="ul" hiddenFrom="md" className={classes.cards} aria-label={t('admin.logs.table')}>
          {entries.map((entry, i) => (
            <Paper component="li" key={keys[i]} withBorder radius="md" p="xs">
              <Stack gap={4}>
                <Group gap="xs" justify="space-between" wrap="nowrap">
                  <Group gap={6} wrap="nowrap">
                    <Level entry={entry} />
                    <Status entry={entry} />
                  </Group>
                  <Text size="xs" c="dimmed" className={classes.nowrap}>
                    {formatDateTime(entry.time, TIME)}
                  </Text>
                </Group>
                <Text size="sm" className={classes.message}>
                  {entry.msg ?? ''}
                </Text>
                <Text size="xs" c="dimmed" className={classes.wrap}>
                  {entry.name ?? '—'} · <span className={classes.mono}>{entry.ip ?? '—'}</span>
                </Text>
              </Stack>
            </Paper>
          ))}
        </Box>
        {(page > 1 || more) && pager}
      </DataState>
    </Stack>
  )
}
