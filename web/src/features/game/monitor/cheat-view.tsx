import { Code, Skeleton, Stack, Table, Text, Title } from '@mantine/core'
import { IconPlugConnectedX, IconShieldCheck } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { useCheatInfo } from '../api'
import { EmptyView } from '../components/empty-view'
import '@mantine/core/styles/Table.css'
import '@mantine/core/styles/Skeleton.css'

/** Flags submitted by a team other than the one they were made for. */
export function CheatView({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data, error, isLoading } = useCheatInfo(gameId)
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        {t('game.monitor.tab.cheatinfo')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('game.monitor.cheat_hint')}
      </Text>
      {isLoading && !data ? (
        <Skeleton height={160} radius="md" aria-label={t('common.loading')} />
      ) : !data ? (
        <EmptyView icon={IconPlugConnectedX} title={t('game.monitor.error')} description={error?.title} />
      ) : data.length === 0 ? (
        <EmptyView icon={IconShieldCheck} title={t('game.monitor.no_cheats')} />
      ) : (
        <Table.ScrollContainer minWidth={760}>
          <Table striped verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('game.monitor.col.owner')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.submitter')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.user')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.challenge')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.answer')}</Table.Th>
                <Table.Th scope="col">{t('game.monitor.col.time')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.map((c, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: cheat records carry no id
                <Table.Tr key={`${c.submission.time}-${i}`}>
                  <Table.Td>{c.ownedTeam.team.name}</Table.Td>
                  <Table.Td>{c.submitTeam.team.name}</Table.Td>
                  <Table.Td>{c.submission.user}</Table.Td>
                  <Table.Td>{c.submission.challenge}</Table.Td>
                  <Table.Td>
                    <Code style={{ wordBreak: 'break-all' }}>{c.submission.answer}</Code>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    {formatDateTime(c.submission.time, { timeStyle: 'medium' })}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  )
}
