import type { MenuProps } from '@mantine/core'

/**
 * How the frame's menus (language, account) open: beside their button at the navigation's foot,
 * kept 8 px inside the screen's edges (on a phone the language list is nearly as wide as it).
 */
export const FRAME_MENU = {
  position: 'right-end',
  withinPortal: true,
  shadow: 'md',
  // crossAxis: beside the button, the main axis is horizontal; shift may then move the list over it.
  middlewares: { flip: true, shift: { padding: 8, crossAxis: true } },
  // Mantine's focus placeholder is a focusable child a `menu` may not hold (axe, critical); the
  // first item takes the focus instead.
  withInitialFocusPlaceholder: false,
} as const satisfies Partial<MenuProps>
