import { Button, Menu } from '@mantine/core'
import { IconChevronDown, IconDownload } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import { exportUrl } from '../api'
import '@mantine/core/styles/Menu.css'

/** Downloads a game's archive: the game alone, or with its teams, submissions and writeups. */
export function ExportMenu({ gameId, title }: { gameId: number; title: string }) {
  const { t } = useTranslation()
  return (
    // No focus placeholder: a focusable "presentation" div inside role=menu fails axe's required-children rule.
    <Menu position="bottom-end" withinPortal withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconDownload size={14} aria-hidden />}
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={t('admin.transfer.export_named', { title })}
        >
          {t('admin.transfer.export')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component="a" href={exportUrl(gameId, false)} download>
          {t('admin.transfer.export_game')}
        </Menu.Item>
        <Menu.Item component="a" href={exportUrl(gameId, true)} download>
          {t('admin.transfer.export_full')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  )
}
