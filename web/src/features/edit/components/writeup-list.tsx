import { Anchor, Avatar, Button, Group, Paper, Stack, Text, Title } from '@mantine/core'
import { IconDownload, IconExternalLink, IconFileDescription } from '@tabler/icons-react'
import { DataState } from '@/components/data-state'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { useWriteups, writeupsArchiveUrl } from '../api'
import '@mantine/core/styles/Avatar.css'

/** Teams' writeups, newest first: each opens in a new tab; all of them download as one archive. */
export function WriteupList({ gameId }: { gameId: number }) {
  const { t } = useTranslation()
  const { data, error, isLoading, mutate } = useWriteups(gameId)

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t('admin.game_tabs.writeups')}
        </Title>
        {!!data?.length && (
          <Button
            component="a"
            href={writeupsArchiveUrl(gameId)}
            download
            variant="light"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            {t('admin.writeups.download_all')}
          </Button>
        )}
      </Group>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={data?.length === 0}
        empty={{
          icon: IconFileDescription,
          title: t('admin.writeups.empty_title'),
          description: t('admin.writeups.empty_body'),
        }}
      >
        <Stack
          gap="sm"
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={t('admin.game_tabs.writeups')}
        >
          {data?.map((w) => (
            <Paper key={w.id} withBorder p="sm" radius="md" component="li">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="sm" wrap="nowrap" miw={0}>
                  <Avatar src={w.team.avatar} name={w.team.name} alt="" radius="md" />
                  <Stack gap={0} miw={0}>
                    <Text fw={600} truncate>
                      {w.team.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {t('admin.writeups.uploaded', { time: formatDateTime(w.uploadTimeUtc) })}
                    </Text>
                  </Stack>
                </Group>
                <Anchor
                  href={w.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  size="sm"
                  aria-label={t('admin.writeups.open_named', { name: w.team.name })}
                >
                  <Group gap={4} wrap="nowrap">
                    {t('admin.writeups.open')}
                    <IconExternalLink size={14} aria-hidden />
                  </Group>
                </Anchor>
              </Group>
            </Paper>
          ))}
        </Stack>
      </DataState>
    </Stack>
  )
}
