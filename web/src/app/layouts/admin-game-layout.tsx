import { Alert, Anchor, Badge, Group, Skeleton, Stack, Title } from '@mantine/core'
import {
  IconArrowLeft,
  IconBell,
  IconClipboardCheck,
  IconFileDescription,
  IconInfoCircle,
  IconPuzzle,
} from '@tabler/icons-react'
import { Link, Outlet, useParams } from 'react-router'
import { useEditGame } from '@/features/edit/api'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { AdminTabs } from './admin-tabs'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Skeleton.css'

/** One game's editing area: its title (the page's h1) and the tabs Info … Writeups. */
export default function AdminGameLayout() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const { data: game, error } = useEditGame(id)
  const tabs = [
    { to: paths.admin.game(id, 'info'), label: t('admin.game_tabs.info'), icon: IconInfoCircle },
    { to: paths.admin.game(id, 'notices'), label: t('admin.game_tabs.notices'), icon: IconBell },
    { to: paths.admin.game(id, 'challenges'), label: t('admin.game_tabs.challenges'), icon: IconPuzzle },
    { to: paths.admin.game(id, 'review'), label: t('admin.game_tabs.review'), icon: IconClipboardCheck },
    { to: paths.admin.game(id, 'writeups'), label: t('admin.game_tabs.writeups'), icon: IconFileDescription },
  ]

  return (
    <Stack gap="xs">
      <Anchor component={Link} to={paths.admin.games} size="sm" w="fit-content">
        <Group gap={4}>
          <IconArrowLeft size={14} aria-hidden />
          {t('admin.game.back')}
        </Group>
      </Anchor>
      {error ? (
        <Alert color="red" title={t('admin.game.load_failed')}>
          {error.title}
        </Alert>
      ) : (
        <Group gap="sm" wrap="nowrap">
          {game ? (
            <Title order={1} size="h2" style={{ wordBreak: 'break-word' }}>
              {game.title}
            </Title>
          ) : (
            <Skeleton height={32} width={240} />
          )}
          {game?.hidden && (
            <Badge color="gray" variant="light">
              {t('admin.games.hidden')}
            </Badge>
          )}
        </Group>
      )}
      <AdminTabs tabs={tabs} label={t('admin.game_tabs.label')} />
      {!error && Number.isSafeInteger(id) && <Outlet />}
    </Stack>
  )
}
