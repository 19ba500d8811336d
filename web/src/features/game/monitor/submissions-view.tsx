import { Button, Code, Group, NativeSelect, Skeleton, Stack, Table, Title } from '@mantine/core'
import { IconDownload, IconListCheck, IconPlugConnectedX } from '@tabler/icons-react'
import { useEffect, useState } from 'react'
import type { AnswerResult } from '@/api/types'
import { LiveBadge } from '@/features/live/live-badge'
import { epochOf, prependRows, useBatched, useCatchUp, useHub } from '@/features/live/use-hub'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type Submission, sheetUrl, useSubmissions } from '../api'
import { EmptyView } from '../components/empty-view'
import { AnswerBadge } from './answer-badge'
import { StepPager } from './step-pager'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Skeleton.css'

const PAGE_SIZE = 50
const RESULTS: AnswerResult[] = ['Accepted', 'WrongAnswer', 'CheatDetected', 'NotFound']

/**
 * Every submission, newest first, 50 a page, filterable by result; all of them as a spreadsheet.
 * Judged submissions stream in from the monitor hub onto the first page; older pages stay still.
 */
export function SubmissionsView({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const [type, setType] = useState<AnswerResult | ''>('')
  const [page, setPage] = useState(1)
  const arrive = useBatched<Submission>((rows) => {
    const shown = rows.filter((s) => !type || s.status === type)
    if (page === 1 && shown.length)
      void mutate((list) => prependRows(list, shown, PAGE_SIZE), { revalidate: false })
  })
  const hub = useHub(`/hub/monitor?game=${gameId}`, {
    ReceivedSubmissions(s: Submission) {
      arrive({ ...s, time: epochOf(s.time) })
    },
  })
  const { data, error, isLoading, mutate } = useSubmissions(
    gameId,
    type || undefined,
    page,
    PAGE_SIZE,
    hub === 'live',
  )
  // Back after a drop (or a server's re-sync): what was pushed meanwhile is read.
  useCatchUp(hub, () => void mutate())
  // biome-ignore lint/correctness/useExhaustiveDependencies: the filter change is the trigger
  useEffect(() => setPage(1), [type])

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Group gap="xs">
          <Title order={2} size="h4">
            {t('game.monitor.tab.submissions')}
          </Title>
          <LiveBadge state={hub} />
        </Group>
        <Group gap="sm" align="flex-end">
          <NativeSelect
            label={t('game.monitor.result_filter')}
            value={type}
            onChange={(e) => setType(e.currentTarget.value as AnswerResult | '')}
            data={[
              { value: '', label: t('game.monitor.all_results') },
              ...RESULTS.map((r) => ({ value: r, label: t(`game.answer.${r}`) })),
            ]}
          />
          <Button
            component="a"
            href={sheetUrl.submissions(gameId)}
            download
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            {t('game.monitor.download_submissions')}
          </Button>
        </Group>
      </Group>
      {isLoading && !data ? (
        <Skeleton height={240} radius="md" aria-label={t('common.loading')} />
      ) : !data ? (
        <EmptyView icon={IconPlugConnectedX} title={t('game.monitor.error')} description={error?.title} />
      ) : data.length === 0 ? (
        <EmptyView icon={IconListCheck} title={t('game.monitor.no_submissions')} />
      ) : (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('game.monitor.col.result')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.time')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.team')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.user')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.challenge')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.answer')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((s, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: submissions here carry no id
                <Table.Tr key={`${s.time}-${i}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <AnswerBadge status={s.status} />
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(s.time, { timeStyle: 'medium' })}
                  </Table.Td>
                  <Table.Td>{s.team}</Table.Td>
                  <Table.Td>{s.user}</Table.Td>
                  <Table.Td>{s.challenge}</Table.Td>
                  <Table.Td>
                    <Code style={{ wordBreak: 'break-all' }}>{s.answer}</Code>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <StepPager page={page} hasNext={(data?.length ?? 0) >= PAGE_SIZE} onChange={setPage} />
    </Stack>
  )
}
