import { Button, Group } from '@mantine/core'
import { IconDownload } from '@tabler/icons-react'
import { Link, useLocation } from 'react-router'
import { paths } from '@/features/paths'
import { useTranslation } from '@/i18n'
import { sheetUrl } from '../api'
import classes from '../components/game-area.module.css'

const TABS = ['events', 'submissions', 'cheatinfo', 'traffic'] as const

/** The monitor's own tabs and the scoreboard spreadsheet download. */
export function MonitorNav({ id }: { id: number }) {
  const { t } = useTranslation()
  const { pathname } = useLocation()
  const current = pathname.split('/')[4]?.toLowerCase()
  return (
    <Group justify="space-between" gap="sm" wrap="wrap">
      <nav className={classes.subtabs} aria-label={t('game.monitor.tabs')}>
        {TABS.map((tab) => (
          <Link
            key={tab}
            to={paths.monitor(id, tab)}
            className={classes.subtab}
            aria-current={tab === current ? 'page' : undefined}
          >
            {t(`game.monitor.tab.${tab}`)}
          </Link>
        ))}
      </nav>
      <Button
        component="a"
        href={sheetUrl.scoreboard(id)}
        download
        variant="light"
        size="xs"
        leftSection={<IconDownload size={16} aria-hidden />}
      >
        {t('game.monitor.download_scoreboard')}
      </Button>
    </Group>
  )
}
