import {
  Accordion,
  Avatar,
  Badge,
  Button,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core'
import { IconCheck, IconClipboardCheck, IconCrown, IconMinus, IconSearch } from '@tabler/icons-react'
import { useState } from 'react'
import { ParticipationStatusValues } from '@/api/schema.gen'
import type { ParticipationStatus } from '@/api/types'
import { confirm } from '@/components/confirm'
import { DataState } from '@/components/data-state'
import { useTranslation } from '@/i18n'
import { notify } from '@/utils/notify'
import { type Participation, useEditGame, useParticipations, useReviewActions } from '../api'
import { reviewActions, STATUS_COLOR } from '../review-actions'
import { filterParticipations, NO_DIVISION, pageOf, type ReviewFilter } from '../review-filter'
import '@mantine/core/styles/Accordion.css'
import '@mantine/core/styles/Avatar.css'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Combobox.css'
import '@mantine/core/styles/Pagination.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Table.css'

const PAGE_SIZE = 10
const REVIEWED: ParticipationStatus[] = ParticipationStatusValues.filter((s) => s !== 'Unsubmitted')

function Members({ participation }: { participation: Participation }) {
  const { t } = useTranslation()
  const registered = new Set(participation.registeredMembers)
  return (
    <Table.ScrollContainer minWidth={720}>
      <Table striped verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('admin.review.member.user')}</Table.Th>
            <Table.Th>{t('admin.review.member.real_name')}</Table.Th>
            <Table.Th>{t('admin.review.member.std_number')}</Table.Th>
            <Table.Th>{t('admin.review.member.email')}</Table.Th>
            <Table.Th>{t('admin.review.member.phone')}</Table.Th>
            <Table.Th>{t('admin.review.member.captain')}</Table.Th>
            <Table.Th>{t('admin.review.member.registered')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {participation.team.members.map((m) => {
            const captain = m.userId === participation.team.captainId
            const joined = registered.has(m.userId)
            return (
              <Table.Tr key={m.userId}>
                <Table.Td>
                  <Group gap={6} wrap="nowrap">
                    <Avatar src={m.avatar} name={m.userName} alt="" size="sm" radius="xl" />
                    {m.userName}
                  </Group>
                </Table.Td>
                <Table.Td>{m.realName || '—'}</Table.Td>
                <Table.Td>{m.stdNumber || '—'}</Table.Td>
                <Table.Td>{m.email}</Table.Td>
                <Table.Td>{m.phone || '—'}</Table.Td>
                <Table.Td>
                  {captain ? (
                    <Badge
                      color="yellow"
                      variant="light"
                      size="sm"
                      leftSection={<IconCrown size={12} aria-hidden />}
                    >
                      {t('admin.review.member.is_captain')}
                    </Badge>
                  ) : (
                    <Text span c="dimmed" size="sm">
                      {t('admin.review.member.no')}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" c={joined ? 'teal' : 'dimmed'}>
                    {joined ? <IconCheck size={14} aria-hidden /> : <IconMinus size={14} aria-hidden />}
                    <Text span size="sm">
                      {joined ? t('admin.review.member.yes') : t('admin.review.member.no')}
                    </Text>
                  </Group>
                </Table.Td>
              </Table.Tr>
            )
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  )
}

function ParticipationPanel({
  gameId,
  participation,
  divisions,
}: {
  gameId: number
  participation: Participation
  divisions: string[]
}) {
  const { t } = useTranslation()
  const review = useReviewActions(gameId)
  const [busy, setBusy] = useState<string | null>(null)
  const name = participation.team.name

  const setStatus = async (to: ParticipationStatus, label: string) => {
    // Rejecting or suspending takes a team out of the game: ask first.
    if (to !== 'Accepted') {
      const ok = await confirm({
        title: label,
        message: t(`admin.review.confirm.${to}`, { name }),
        confirmLabel: label,
        danger: true,
      })
      if (!ok) return
    }
    setBusy(to)
    try {
      await review(participation.id, { status: to })
      notify.success(t(`admin.review.done.${to}`, { name }))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  const setDivision = async (division: string | null) => {
    if (!division || division === participation.division) return
    setBusy('division')
    try {
      await review(participation.id, { division })
      notify.success(t('admin.review.division_changed', { name, division }))
    } catch (err) {
      notify.error(err)
    } finally {
      setBusy(null)
    }
  }

  return (
    <Stack gap="sm">
      {participation.team.bio && (
        <Text size="sm" c="dimmed">
          {participation.team.bio}
        </Text>
      )}
      <Group gap="sm" align="flex-end">
        {reviewActions(participation.status).map((action) => (
          <Button
            key={action.to}
            color={action.color}
            variant={action.to === 'Accepted' ? 'filled' : 'light'}
            loading={busy === action.to}
            disabled={busy !== null && busy !== action.to}
            onClick={() => setStatus(action.to, t(action.label))}
            aria-label={`${t(action.label)} ${name}`}
          >
            {t(action.label)}
          </Button>
        ))}
        {divisions.length > 0 && (
          <Select
            label={t('admin.review.division')}
            data={divisions}
            value={participation.division}
            onChange={setDivision}
            allowDeselect={false}
            disabled={busy !== null}
            maw={220}
          />
        )}
      </Group>
      <Members participation={participation} />
    </Stack>
  )
}

/** Teams that registered for the game: search and filter, decide, move divisions. */
export function ReviewList({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useParticipations(gameId)
  const { data: game } = useEditGame(gameId)
  const [filter, setFilter] = useState<ReviewFilter>({ search: '', division: '', status: '' })
  const [page, setPage] = useState(1)
  const divisions = game?.divisions ?? []
  const matching = filterParticipations(data ?? [], filter)
  const pages = Math.max(1, Math.ceil(matching.length / PAGE_SIZE))
  const shown = pageOf(matching, Math.min(page, pages), PAGE_SIZE)
  const update = (change: Partial<ReviewFilter>) => {
    setFilter((f) => ({ ...f, ...change }))
    setPage(1)
  }

  return (
    <Stack gap="md">
      <Title order={2} size="h3">
        {t('admin.game_tabs.review')}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: divisions.length ? 3 : 2 }}>
        <TextInput
          label={t('admin.review.search')}
          placeholder={t('admin.review.search_placeholder')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filter.search}
          onChange={(e) => update({ search: e.currentTarget.value })}
        />
        <Select
          label={t('admin.review.status')}
          data={[
            { value: '', label: t('admin.review.any_status') },
            ...REVIEWED.map((s) => ({ value: s, label: t(`admin.review.status_name.${s}`) })),
          ]}
          value={filter.status}
          onChange={(v) => update({ status: (v ?? '') as ParticipationStatus | '' })}
          allowDeselect={false}
        />
        {divisions.length > 0 && (
          <Select
            label={t('admin.review.division')}
            data={[
              { value: '', label: t('admin.review.any_division') },
              { value: NO_DIVISION, label: t('admin.review.no_division') },
              ...divisions.map((d) => ({ value: d, label: d })),
            ]}
            value={filter.division}
            onChange={(v) => update({ division: v ?? '' })}
            allowDeselect={false}
          />
        )}
      </SimpleGrid>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={matching.length === 0}
        empty={{
          icon: IconClipboardCheck,
          title: data?.length ? t('admin.review.no_match') : t('admin.review.empty_title'),
          description: data?.length ? undefined : t('admin.review.empty_body'),
        }}
      >
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('admin.review.count', { shown: matching.length, total: data?.length ?? 0 })}
        </Text>
        <Accordion variant="separated" chevronPosition="right" multiple>
          {shown.map((p) => (
            <Accordion.Item key={p.id} value={String(p.id)}>
              <Accordion.Control>
                <Group gap="sm" wrap="nowrap">
                  <Avatar src={p.team.avatar} name={p.team.name} alt="" radius="md" />
                  <Stack gap={2} miw={0}>
                    <Group gap={6}>
                      <Text fw={600} style={{ wordBreak: 'break-word' }}>
                        {p.team.name}
                      </Text>
                      <Badge color={STATUS_COLOR[p.status]} variant="light" size="sm">
                        {t(`admin.review.status_name.${p.status}`)}
                      </Badge>
                      {p.division && (
                        <Badge color="gray" variant="outline" size="sm">
                          {p.division}
                        </Badge>
                      )}
                    </Group>
                    <Text size="xs" c="dimmed">
                      {t('admin.review.registered_count', {
                        registered: p.registeredMembers.length,
                        members: p.team.members.length,
                      })}
                    </Text>
                  </Stack>
                </Group>
              </Accordion.Control>
              <Accordion.Panel>
                <ParticipationPanel gameId={gameId} participation={p} divisions={divisions} />
              </Accordion.Panel>
            </Accordion.Item>
          ))}
        </Accordion>
        {pages > 1 && (
          <Group justify="center">
            <Pagination
              total={pages}
              value={Math.min(page, pages)}
              onChange={setPage}
              getControlProps={(control) => ({ 'aria-label': t(`admin.pagination.${control}`) })}
            />
          </Group>
        )}
      </DataState>
    </Stack>
  )
}
