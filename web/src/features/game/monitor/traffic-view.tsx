import {
  ActionIcon,
  Button,
  Group,
  NavLink,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core'
import { IconDownload, IconNetwork, IconPlugConnectedX, IconTrash } from '@tabler/icons-react'
import { type ReactNode, useState } from 'react'
import { confirm } from '@/components/confirm'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { formatSize } from '@/utils/format-size'
import { notify } from '@/utils/notify'
import { captureUrl, useCaptureChallenges, useCaptureFiles, useCaptureTeams, useDeleteCapture } from '../api'
import { EmptyView } from '../components/empty-view'
import '@mantine/core/styles/NavLink.css'
import '@mantine/core/styles/SimpleGrid.css'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Skeleton.css'

function Column({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Paper withBorder p="xs" radius="md" component="section" aria-label={title}>
      <Text fw={600} size="sm" mb={6}>
        {title}
      </Text>
      {children}
    </Paper>
  )
}

/**
 * Captured traffic of proxied containers (seed route games/{id}/monitor/Traffic): challenges
 * with capture on, the teams with captures of the chosen one, that team's files with sizes and
 * times; download one or all, delete one or all.
 */
export function TrafficView({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const [challengeId, setChallengeId] = useState<number | null>(null)
  const [partId, setPartId] = useState<number | null>(null)
  const challenges = useCaptureChallenges(gameId)
  const teams = useCaptureTeams(challengeId)
  const files = useCaptureFiles(challengeId, partId)
  const remove = useDeleteCapture(gameId)
  const teamList = teams.error?.httpStatus === 404 ? [] : teams.data
  const team = teamList?.find((x) => x.id === partId) ?? null
  const total = (files.data ?? []).reduce((sum, f) => sum + f.size, 0)

  const del = async (fileName?: string) => {
    if (!challengeId || !partId) return
    const ok = await confirm({
      title: fileName ? t('game.monitor.traffic.delete') : t('game.monitor.traffic.delete_all'),
      message: fileName
        ? t('game.monitor.traffic.delete_confirm', { file: fileName })
        : t('game.monitor.traffic.delete_all_confirm', { team: team?.name ?? '' }),
      confirmLabel: t('game.monitor.traffic.delete'),
      danger: true,
    })
    if (!ok) return
    try {
      await remove(challengeId, partId, fileName)
      notify.success(t('game.monitor.traffic.deleted'))
    } catch (err) {
      notify.error(err)
    }
  }

  if (challenges.isLoading && !challenges.data)
    return <Skeleton height={200} radius="md" aria-label={t('common.loading')} />
  if (!challenges.data)
    return (
      <EmptyView
        icon={IconPlugConnectedX}
        title={t('game.monitor.error')}
        description={challenges.error?.title}
      />
    )
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('game.monitor.tab.traffic')}
      </Title>
      {challenges.data.length === 0 ? (
        <EmptyView
          icon={IconNetwork}
          title={t('game.monitor.traffic.none')}
          description={t('game.monitor.traffic.none_hint')}
        />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 3 }} spacing="sm">
          <Column title={t('game.monitor.traffic.challenges')}>
            {challenges.data.map((c) => (
              <NavLink
                key={c.id}
                component="button"
                active={c.id === challengeId}
                label={c.title}
                description={t('game.monitor.traffic.team_count', { count: c.count })}
                onClick={() => {
                  setChallengeId(c.id)
                  setPartId(null)
                }}
              />
            ))}
          </Column>
          <Column title={t('game.monitor.traffic.teams')}>
            {!challengeId ? (
              <Text size="sm" c="dimmed">
                {t('game.monitor.traffic.pick_challenge')}
              </Text>
            ) : !teamList ? (
              <Skeleton height={80} aria-label={t('common.loading')} />
            ) : teamList.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('game.monitor.traffic.no_team')}
              </Text>
            ) : (
              teamList.map((x) => (
                <NavLink
                  key={x.id}
                  component="button"
                  active={x.id === partId}
                  label={x.name ?? `#${x.teamId}`}
                  description={t('game.monitor.traffic.file_count', { count: x.count })}
                  onClick={() => setPartId(x.id)}
                />
              ))
            )}
          </Column>
          <Column title={t('game.monitor.traffic.files')}>
            {!challengeId || !partId ? (
              <Text size="sm" c="dimmed">
                {t('game.monitor.traffic.pick_team')}
              </Text>
            ) : !files.data ? (
              <Skeleton height={80} aria-label={t('common.loading')} />
            ) : files.data.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('game.monitor.traffic.no_file')}
              </Text>
            ) : (
              <Stack gap={6}>
                <Group justify="space-between" gap="xs">
                  <Text size="sm">{t('game.monitor.traffic.total', { size: formatSize(total) })}</Text>
                  <Group gap={6}>
                    <Button
                      component="a"
                      href={captureUrl(challengeId, partId)}
                      download
                      size="xs"
                      variant="light"
                      leftSection={<IconDownload size={14} aria-hidden />}
                    >
                      {t('game.monitor.traffic.download_all')}
                    </Button>
                    <Button
                      size="xs"
                      variant="light"
                      color="red"
                      leftSection={<IconTrash size={14} aria-hidden />}
                      onClick={() => del()}
                    >
                      {t('game.monitor.traffic.delete_all')}
                    </Button>
                  </Group>
                </Group>
                <Table.ScrollContainer minWidth={320}>
                  <Table verticalSpacing={4} fz="sm">
                    <Table.Thead>
                      <Table.Tr>
                        <Table.Th scope="col">{t('game.monitor.traffic.file')}</Table.Th>
                        <Table.Th scope="col">{t('game.monitor.traffic.size')}</Table.Th>
                        <Table.Th scope="col">{t('game.monitor.col.time')}</Table.Th>
                        <Table.Th scope="col">
                          <VisuallyHidden>{t('game.monitor.traffic.actions')}</VisuallyHidden>
                        </Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {files.data.map((f) => (
                        <Table.Tr key={f.fileName}>
                          <Table.Td style={{ wordBreak: 'break-all' }}>{f.fileName}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatSize(f.size)}</Table.Td>
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>
                            {formatDateTime(f.updateTime, { timeStyle: 'medium' })}
                          </Table.Td>
                          <Table.Td>
                            <Group gap={2} wrap="nowrap">
                              <ActionIcon
                                component="a"
                                href={captureUrl(challengeId, partId, f.fileName)}
                                download
                                variant="subtle"
                                aria-label={t('game.monitor.traffic.download_file', { file: f.fileName })}
                              >
                                <IconDownload size={16} aria-hidden />
                              </ActionIcon>
                              <ActionIcon
                                variant="subtle"
                                color="red"
                                aria-label={t('game.monitor.traffic.delete_file', { file: f.fileName })}
                                onClick={() => del(f.fileName)}
                              >
                                <IconTrash size={16} aria-hidden />
                              </ActionIcon>
                            </Group>
                          </Table.Td>
                        </Table.Tr>
                      ))}
                    </Table.Tbody>
                  </Table>
                </Table.ScrollContainer>
              </Stack>
            )}
          </Column>
        </SimpleGrid>
      )}
    </Stack>
  )
}
