import {
  ActionIcon,
  Code,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core'
import { IconSearch, IconServerOff, IconTerminal2, IconTrash } from '@tabler/icons-react'
import { useState } from 'react'
import { confirm } from '@/components/confirm'
import { CopyButton } from '@/components/copy-button'
import { DataState } from '@/components/data-state'
import { CATEGORY_COLOR } from '@/features/edit/categories'
import { useNow } from '@/features/game/use-now'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { formatDateTime, formatDuration } from '@/utils/format-date'
import { type ContainerInstance, useDestroyInstance, useInstances } from '../api'
import { filterInstances, type InstanceFilter, instanceGames, NO_FILTER, shortId } from '../instance-filter'
import { InstanceLogs } from './instance-logs'
import '@mantine/core/styles/Table.css'

const nowrap = { whiteSpace: 'nowrap' } as const

function InstanceRow({ instance, now }: { instance: ContainerInstance; now: number }) {
  const { t } = useTranslation()
  const destroyInstance = useDestroyInstance()
  const { busy, run } = useSubmit()
  const [showLogs, setShowLogs] = useState(false)
  const entry = `${instance.ip}:${instance.port}`
  const left = instance.expectStopAt - now
  const team = instance.team?.name ?? t('admin.instances.unknown')
  const challenge = instance.challenge?.title ?? t('admin.instances.unknown')

  const destroy = async () => {
    const ok = await confirm({
      title: t('admin.instances.destroy'),
      message: t('admin.instances.destroy_confirm', { team, challenge }),
      confirmLabel: t('admin.instances.destroy'),
      danger: true,
    })
    if (!ok) return
    await run(() => destroyInstance(instance.containerGuid), {
      success: t('admin.instances.destroyed', { team, challenge }),
    })
  }

  return (
    <Table.Tr>
      <Table.Td>{team}</Table.Td>
      <Table.Td>
        <Group gap={6} wrap="nowrap">
          {instance.challenge && (
            <span
              aria-hidden
              style={{
                flexShrink: 0,
                width: 10,
                height: 10,
                borderRadius: 5,
                background: `var(--mantine-color-${CATEGORY_COLOR[instance.challenge.category]}-filled)`,
              }}
            />
          )}
          <span>{challenge}</span>
        </Group>
        {instance.challenge && (
          <Text size="xs" c="dimmed">
            {t(`admin.category.${instance.challenge.category}`)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>{instance.game?.title ?? t('admin.instances.unknown')}</Table.Td>
      <Table.Td style={nowrap}>{formatDateTime(instance.startedAt)}</Table.Td>
      <Table.Td style={nowrap}>
        {left > 0 ? (
          <Text span ff="monospace" size="sm">
            {formatDuration(left, { padHours: true })}
          </Text>
        ) : (
          <Text span c="dimmed" size="sm">
            {t('admin.instances.expired')}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          <Code>{entry}</Code>
          <CopyButton value={entry} label={t('admin.instances.copy_entry', { entry })} />
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          <Code title={instance.containerId}>{shortId(instance.containerId)}</Code>
          <CopyButton value={instance.containerId} label={t('admin.instances.copy_id')} />
        </Group>
      </Table.Td>
      <Table.Td>
        <Group gap={2} wrap="nowrap">
          <ActionIcon
            variant="subtle"
            onClick={() => setShowLogs(true)}
            aria-label={t('admin.instances.logs_named', { team, challenge })}
            title={t('admin.instances.logs')}
          >
            <IconTerminal2 size={16} aria-hidden />
          </ActionIcon>
          <ActionIcon
            variant="subtle"
            color="red"
            loading={busy}
            onClick={destroy}
            aria-label={t('admin.instances.destroy_named', { team, challenge })}
            title={t('admin.instances.destroy')}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
        {showLogs && (
          <InstanceLogs
            containerGuid={instance.containerGuid}
            title={t('admin.instances.logs_named', { team, challenge })}
            onClose={() => setShowLogs(false)}
          />
        )}
      </Table.Td>
    </Table.Tr>
  )
}

/**
 * Every running team container (refreshed every 10 s), filtered here by game, team and
 * challenge; each can be copied from and destroyed. Wide on phones: the table scrolls sideways.
 */
export function InstanceList() {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useInstances()
  const [filter, setFilter] = useState<InstanceFilter>(NO_FILTER)
  const now = useNow()
  const all = data?.data ?? []
  const shown = filterInstances(all, filter)
  const set = (key: keyof InstanceFilter) => (value: string) => setFilter((f) => ({ ...f, [key]: value }))

  return (
    <Stack gap="sm">
      <Group gap="sm" align="flex-end" grow preventGrowOverflow={false}>
        <NativeSelect
          label={t('admin.instances.filter_game')}
          value={filter.game}
          onChange={(e) => set('game')(e.currentTarget.value)}
          data={[
            { value: '', label: t('admin.instances.all_games') },
            ...instanceGames(all).map((g) => ({ value: String(g.id), label: g.title })),
          ]}
          miw={180}
        />
        <TextInput
          label={t('admin.instances.filter_team')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filter.team}
          onChange={(e) => set('team')(e.currentTarget.value)}
          miw={180}
        />
        <TextInput
          label={t('admin.instances.filter_challenge')}
          leftSection={<IconSearch size={16} aria-hidden />}
          value={filter.challenge}
          onChange={(e) => set('challenge')(e.currentTarget.value)}
          miw={180}
        />
      </Group>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={shown.length === 0}
        empty={{
          icon: IconServerOff,
          title: all.length ? t('admin.instances.none_matching') : t('admin.instances.none'),
          description: all.length ? undefined : t('admin.instances.none_hint'),
        }}
      >
        <Text size="sm" c="dimmed" aria-live="polite">
          {t('admin.instances.count', { shown: shown.length, total: all.length })}
        </Text>
        <Table.ScrollContainer minWidth={980}>
          <Table striped highlightOnHover verticalSpacing={6} aria-label={t('admin.instances.table')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('admin.instances.col.team')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.challenge')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.game')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.started')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.left')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.entry')}</Table.Th>
                <Table.Th scope="col">{t('admin.instances.col.container')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('admin.instances.col.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {shown.map((instance) => (
                <InstanceRow key={instance.containerGuid} instance={instance} now={now} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </DataState>
      <Text size="xs" c="dimmed">
        {t('admin.instances.footnote')}
      </Text>
    </Stack>
  )
}
