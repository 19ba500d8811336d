import { Badge } from '@mantine/core'
import { useTranslation } from '@/i18n'
import type { HubState } from './use-hub'
import '@mantine/core/styles/Badge.css'

const COLOR: Record<HubState, string> = {
  live: 'teal',
  connecting: 'gray',
  reconnecting: 'yellow',
  off: 'gray',
}

/** Whether a screen updates live, is reconnecting, or falls back to polling. */
export function LiveBadge({ state }: { state: HubState }) {
  const { t } = useTranslation()
  return (
    <Badge size="sm" variant="dot" color={COLOR[state]} role="status" aria-live="polite">
      {t(`frame.live.${state}`)}
    </Badge>
  )
}
