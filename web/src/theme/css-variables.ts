import type { CSSVariablesResolver } from '@mantine/core'
import { darken, luminance, readable } from './colors'

/**
 * The surfaces text sits on in each scheme: the page, cards and inputs, hovered rows. Mantine's
 * defaults for dimmed text, placeholders and coloured text fall short of 4.5:1 on some of them
 * (dimmed: 4.03:1 on the dark page, 3.32:1 on the light one).
 */
const LIGHT_SURFACES = ['#ffffff', '#f8f9fa', '#f1f3f5', '#e9ecef'] as const
const DARK_SURFACES = ['#242424', '#2e2e2e', '#3b3b3b'] as const

/** Mantine's `autoContrast` puts black text on shades lighter than this, white on the others. */
export const LUMINANCE_THRESHOLD = 0.3

/**
 * A filled control's colour: a shade that takes white text is darkened until white reads on it
 * at 4.5:1 (Mantine's teal, green, cyan… at shades 7 and 8 do not); one that takes black text
 * is kept.
 */
function filled(shade: string): string {
  return luminance(shade) > LUMINANCE_THRESHOLD ? shade : readable(shade, ['#ffffff'], 'darker')
}

/**
 * Colour tokens that pass WCAG 2.2 AA in both schemes, for every palette of the theme (the brand
 * or a custom primary colour included): each colour's text, its light variant's text (badges,
 * alerts), its outline variant and its filled controls are moved darker (light scheme) or lighter (dark scheme) until
 * they read at 4.5:1 on the surfaces they are drawn on. Mantine emits these after its own.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  const light: Record<string, string> = {
    '--mantine-color-dimmed': readable('#868e96', LIGHT_SURFACES, 'darker'),
    '--mantine-color-placeholder': readable('#868e96', ['#ffffff', '#f8f9fa'], 'darker'),
    // Disabled controls still say something (e.g. "Joined"): readable on their grey.
    '--mantine-color-disabled-color': readable('#868e96', ['#e9ecef'], 'darker'),
  }
  const dark: Record<string, string> = {
    '--mantine-color-dimmed': readable('#828282', DARK_SURFACES, 'lighter'),
    '--mantine-color-placeholder': readable('#696969', ['#242424', '#2e2e2e'], 'lighter'),
    '--mantine-color-disabled-color': readable('#696969', ['#2e2e2e'], 'lighter'),
  }
  for (const [name, shades] of Object.entries(theme.colors)) {
    if (name === 'dark' || shades.length < 10) continue
    const s = shades as readonly string[]
    const lightText = readable(s[7]!, [...LIGHT_SURFACES, s[1]!], 'darker')
    light[`--mantine-color-${name}-text`] = lightText
    light[`--mantine-color-${name}-outline`] = readable(s[7]!, LIGHT_SURFACES, 'darker')
    light[`--mantine-color-${name}-light-color`] = readable(s[9]!, [s[1]!, s[2]!], 'darker')
    light[`--mantine-color-${name}-filled`] = filled(s[7]!)
    light[`--mantine-color-${name}-filled-hover`] = filled(s[8]!)

    const darkLight = darken(s[9]!, 0.5)
    const darkLightHover = darken(s[9]!, 0.3)
    dark[`--mantine-color-${name}-text`] = readable(s[4]!, [...DARK_SURFACES, darkLight], 'lighter')
    dark[`--mantine-color-${name}-outline`] = readable(s[4]!, DARK_SURFACES, 'lighter')
    dark[`--mantine-color-${name}-light-color`] = readable(s[0]!, [darkLight, darkLightHover], 'lighter')
    dark[`--mantine-color-${name}-filled`] = filled(s[8]!)
    dark[`--mantine-color-${name}-filled-hover`] = filled(s[9]!)
  }
  // Links: the primary colour's text colour.
  light['--mantine-color-anchor'] = light[`--mantine-color-${theme.primaryColor}-text`]!
  dark['--mantine-color-anchor'] = dark[`--mantine-color-${theme.primaryColor}-text`]!
  return { variables: {}, light, dark }
}
