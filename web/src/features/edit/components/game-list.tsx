import { gamePhase } from '@engine/game-phase.ts'
import {
  Badge,
  Button,
  Center,
  Group,
  Image,
  Pagination,
  Paper,
  Stack,
  Switch,
  Text,
  Title,
} from '@mantine/core'
import { IconEdit, IconFileImport, IconFlag, IconPlus } from '@tabler/icons-react'
import { useState } from 'react'
import { Link } from 'react-router'
import { DataState } from '@/components/data-state'
import { paths } from '@/features/paths'
import { useTransferOn } from '@/features/transfer/api'
import { ExportMenu } from '@/features/transfer/components/export-menu'
import { ImportModal } from '@/features/transfer/components/import-modal'
import { useSubmit } from '@/hooks/use-submit'
import { useTranslation } from '@/i18n'
import { formatDateTime } from '@/utils/format-date'
import { type EditGame, useEditGames, useGameActions } from '../api'
import { NewGameModal } from './new-game-modal'
import '@mantine/core/styles/Pagination.css'
import '@mantine/core/styles/Switch.css'
import '@mantine/core/styles/Badge.css'

const PAGE_SIZE = 30

function GameRow({ game, transfer }: { game: EditGame; transfer: boolean }) {
  const { t } = useTranslation()
  const { setHidden } = useGameActions()
  const { busy, run } = useSubmit()
  const phase = gamePhase(game.start, game.end, Date.now())

  const toggleHidden = async (hidden: boolean) => {
    await run(() => setHidden(game.id, hidden), {
      success: hidden
        ? t('admin.games.now_hidden', { title: game.title })
        : t('admin.games.now_visible', { title: game.title }),
    })
  }

  return (
    <Paper withBorder p="sm" radius="md" component="li">
      <Group wrap="nowrap" align="flex-start" gap="md">
        {game.poster ? (
          <Image src={game.poster} alt="" w={96} h={54} radius="sm" fit="cover" visibleFrom="xs" />
        ) : (
          <Center
            w={96}
            h={54}
            bg="var(--mantine-color-default-hover)"
            style={{ borderRadius: 4 }}
            visibleFrom="xs"
          >
            <IconFlag size={22} aria-hidden color="var(--mantine-color-dimmed)" />
          </Center>
        )}
        <Stack gap={4} style={{ flex: 1 }} miw={0}>
          <Group gap="xs" wrap="wrap">
            <Title order={2} size="h5" style={{ wordBreak: 'break-word' }}>
              <Link to={paths.admin.game(game.id, 'info')} style={{ color: 'inherit' }}>
                {game.title}
              </Link>
            </Title>
            <Badge
              size="sm"
              variant="light"
              color={phase === 'running' ? 'teal' : phase === 'upcoming' ? 'yellow' : 'blue'}
            >
              {t(`admin.games.phase.${phase}`)}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {formatDateTime(game.start)} – {formatDateTime(game.end)}
          </Text>
          {game.summary && (
            <Text size="sm" lineClamp={2}>
              {game.summary}
            </Text>
          )}
        </Stack>
        <Stack gap="xs" align="flex-end">
          <Switch
            label={t('admin.games.hidden')}
            checked={game.hidden}
            disabled={busy}
            onChange={(e) => toggleHidden(e.currentTarget.checked)}
            labelPosition="left"
            aria-label={t('admin.games.hide_named', { title: game.title })}
          />
          <Button
            component={Link}
            to={paths.admin.game(game.id, 'info')}
            size="xs"
            variant="light"
            leftSection={<IconEdit size={14} aria-hidden />}
            aria-label={t('admin.games.edit_named', { title: game.title })}
          >
            {t('common.button.edit')}
          </Button>
          {transfer && <ExportMenu gameId={game.id} title={game.title} />}
        </Stack>
      </Group>
    </Paper>
  )
}

/** Every game, hidden ones too, 30 a page, newest first; create a game from here. */
export function GameList() {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const [creating, setCreating] = useState(false)
  const [importing, setImporting] = useState(false)
  const transfer = useTransferOn()
  const { data, error, isLoading, mutate } = useEditGames(page, PAGE_SIZE)
  const pages = Math.max(1, Math.ceil((data?.total ?? 0) / PAGE_SIZE))

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          {t('admin.games.title')}
        </Title>
        <Group gap="xs">
          {transfer && (
            <Button
              variant="default"
              leftSection={<IconFileImport size={16} aria-hidden />}
              onClick={() => setImporting(true)}
            >
              {t('admin.transfer.import')}
            </Button>
          )}
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setCreating(true)}>
            {t('admin.games.new')}
          </Button>
        </Group>
      </Group>
      <DataState
        loading={isLoading && !data}
        error={data ? undefined : error}
        onRetry={() => mutate()}
        isEmpty={data?.data.length === 0}
        empty={{
          icon: IconFlag,
          title: t('admin.games.empty_title'),
          description: t('admin.games.empty_body'),
        }}
      >
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {data?.data.map((game) => (
            <GameRow key={game.id} game={game} transfer={transfer} />
          ))}
        </Stack>
        {pages > 1 && (
          <Group justify="center">
            <Pagination
              total={pages}
              value={page}
              onChange={setPage}
              getControlProps={(control) => ({
                'aria-label': t(`admin.pagination.${control}`),
              })}
            />
          </Group>
        )}
      </DataState>
      <NewGameModal opened={creating} onClose={() => setCreating(false)} />
      {transfer && <ImportModal opened={importing} onClose={() => setImporting(false)} />}
    </Stack>
  )
}
