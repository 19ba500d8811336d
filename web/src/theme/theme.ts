import { createTheme, type MantineColorsTuple } from '@mantine/core'
import { t } from '@/i18n'
import { BRAND, paletteOf } from './colors'
import { LUMINANCE_THRESHOLD } from './css-variables'

/** The Mantine theme for a primary colour (null = the brand ramp), in the current language. */
export function buildTheme(primary: string | null) {
  return createTheme({
    primaryColor: 'brand',
    colors: { brand: (primary ? paletteOf(primary) : [...BRAND]) as unknown as MantineColorsTuple },
    // Darker shades than Mantine's default so white text on filled controls stays readable.
    primaryShade: { light: 7, dark: 8 },
    // Filled controls of any colour pick black or white text, whichever reads better.
    autoContrast: true,
    luminanceThreshold: LUMINANCE_THRESHOLD,
    // System fonts: nothing to download before the first paint.
    fontFamily:
      'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", Ubuntu, Cantarell, "Helvetica Neue", Arial, sans-serif',
    fontFamilyMonospace: 'ui-monospace, SFMono-Regular, "JetBrains Mono", Menlo, Consolas, monospace',
    headings: { fontWeight: '650' },
    defaultRadius: 'md',
    cursorType: 'pointer',
    focusRing: 'auto',
    components: {
      Modal: {
        defaultProps: {
          centered: true,
          overlayProps: { backgroundOpacity: 0.5, blur: 8 },
          // Mantine's close button has no accessible name of its own.
          closeButtonProps: { 'aria-label': t('common.button.close') },
        },
      },
      // The toasts' close button too.
      Notification: { defaultProps: { closeButtonProps: { 'aria-label': t('common.button.close') } } },
      // A loader with a name ("Loading…") is a status; a span may not carry a name otherwise.
      Loader: { defaultProps: { role: 'status' } },
      Tooltip: { defaultProps: { withArrow: true, openDelay: 300 } },
      Badge: { defaultProps: { variant: 'light' } },
      // The up/down steppers are two 17 px targets each, under WCAG 2.2's 24 px (2.5.8) and
      // hard to hit on a phone; typing, and the arrow keys, set the number as well.
      NumberInput: { defaultProps: { hideControls: true } },
    },
  })
}
