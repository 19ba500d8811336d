import { ActionIcon, type ActionIconProps } from '@mantine/core'
import type { Icon } from '@tabler/icons-react'
import type { ComponentProps } from 'react'

/**
 * An icon button of the frame's tool row (language, colour scheme, theme colour): one look for
 * all of them, its label both its accessible name and its tooltip.
 */
export function FrameIconButton({
  label,
  icon: Glyph,
  ...props
}: { label: string; icon: Icon } & ActionIconProps & Omit<ComponentProps<'button'>, 'color'>) {
  return (
    <ActionIcon variant="subtle" color="gray" size="lg" aria-label={label} title={label} {...props}>
      <Glyph size={20} aria-hidden />
    </ActionIcon>
  )
}
