import type { GamePhase } from '@engine/game-phase.ts'
import { Badge } from '@mantine/core'
import { IconCircleCheck, IconClock, IconPlayerPlay } from '@tabler/icons-react'
import { useTranslation } from '@/i18n'
import '@mantine/core/styles/Badge.css'

const LOOK = {
  upcoming: { color: 'yellow', icon: IconClock },
  running: { color: 'green', icon: IconPlayerPlay },
  ended: { color: 'blue', icon: IconCircleCheck },
} as const

/** A game's phase as a badge: icon and word, the colour only repeats them. */
export function PhaseBadge({ phase }: { phase: GamePhase }) {
  const { t } = useTranslation()
  const { color, icon: PhaseIcon } = LOOK[phase]
  return (
    <Badge color={color} leftSection={<PhaseIcon size={12} aria-hidden />}>
      {t(`game.phase.${phase}`)}
    </Badge>
  )
}
