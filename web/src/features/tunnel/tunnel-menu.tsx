import { ActionIcon, Badge, Button, Code, Popover, Stack, Switch, Text } from '@mantine/core'
import { IconPlugConnected } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import type { DaemonState } from './daemon'
import { useTunnelStatus } from './use-tunnel'
import '@mantine/core/styles/Badge.css'
import '@mantine/core/styles/Popover.css'
import '@mantine/core/styles/Switch.css'

const COLOR: Record<DaemonState, string> = { usable: 'teal', pending: 'yellow', invalid: 'gray' }

/**
 * The navbar's tunnel control, shown when the platform proxies containers (seed §2): the local
 * daemon's state and address, the LAN option, and how to start the daemon. Loaded on its own.
 */
export default function TunnelMenu({ title }: { title: string }) {
  const { t } = useTranslation()
  const status = useTunnelStatus(title)
  const label = t('frame.tunnel.label', { state: t(`frame.tunnel.state.${status.state}`) })
  return (
    <Popover position="right-end" withinPortal shadow="md" width={300}>
      <Popover.Target>
        <ActionIcon variant="subtle" color={COLOR[status.state]} size="lg" aria-label={label} title={label}>
          <IconPlugConnected size={20} aria-hidden />
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap="xs" role="group" aria-label={t('frame.tunnel.title')}>
          <Text fw={600} size="sm">
            {t('frame.tunnel.title')}{' '}
            <Badge color={COLOR[status.state]} variant="light">
              {t(`frame.tunnel.state.${status.state}`)}
            </Badge>
          </Text>
          <Text size="xs" c="dimmed">
            {t('frame.tunnel.api', { api: status.api })}
          </Text>
          {status.state !== 'usable' && (
            <Text size="sm">
              {t('frame.tunnel.how')} <Code>node tunnel.mjs --allow {window.location.origin}</Code>{' '}
              <a href="/api/ext/tunnel.mjs" download>
                tunnel.mjs
              </a>
            </Text>
          )}
          <Switch
            checked={status.allowLan}
            onChange={(e) => status.setAllowLan(e.currentTarget.checked)}
            label={t('frame.tunnel.allow_lan')}
          />
          <Button size="xs" variant="light" onClick={status.reconnect}>
            {t('frame.tunnel.reconnect')}
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  )
}
