/** The brand ramp (teal), light to dark: Mantine's ten shades. */
export const BRAND = [
  '#e6fcf8',
  '#c3f3ea',
  '#9ae8db',
  '#6ddbc9',
  '#45ceb8',
  '#2bb8a2',
  '#1d9c89',
  '#0d7f70',
  '#066a5d',
  '#00564b',
] as const

const HEX = /^#[0-9a-fA-F]{6}$/

/** A theme colour is `#` and six hex digits; anything else is ignored (seed section 5). */
export function isHexColor(value: unknown): value is string {
  return typeof value === 'string' && HEX.test(value)
}

/** How the primary colour is chosen: the server's (Managed), the brand (Default), or the user's. */
export type ThemeProvider = 'Managed' | 'Default' | 'Custom'

/** What is stored for each choice: empty for Managed, `brand` for Default, the hex for Custom. */
export function providerOf(stored: string | null | undefined): ThemeProvider {
  if (stored === 'brand') return 'Default'
  if (isHexColor(stored)) return 'Custom'
  return 'Managed'
}

/**
 * The colour to build the palette from, or null for the brand ramp. A stored custom value that
 * is not a valid hex is rejected (read as Managed); the server's colour is used only when valid.
 */
export function resolvePrimary(stored: string | null | undefined, serverColor: string | null | undefined) {
  switch (providerOf(stored)) {
    case 'Default':
      return null
    case 'Custom':
      return (stored as string).toLowerCase()
    case 'Managed':
      return isHexColor(serverColor) ? serverColor.toLowerCase() : null
  }
}

function toRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

function toHex([r, g, b]: [number, number, number]): string {
  return `#${[r, g, b]
    .map((c) =>
      Math.round(Math.min(255, Math.max(0, c)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`
}

const mix = (
  a: [number, number, number],
  b: [number, number, number],
  t: number,
): [number, number, number] => [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, a[2] + (b[2] - a[2]) * t]

/**
 * Ten shades around a colour, lightest first, with the colour itself at index 6 (the shade
 * Mantine uses for filled controls in light mode): tints towards white above, shades towards
 * black below.
 */
export function paletteOf(hex: string): string[] {
  const base = toRgb(hex)
  const white: [number, number, number] = [255, 255, 255]
  const black: [number, number, number] = [0, 0, 0]
  const tints = [0.92, 0.8, 0.64, 0.48, 0.32, 0.16].map((t) => toHex(mix(base, white, t)))
  const shades = [0.14, 0.28, 0.42].map((t) => toHex(mix(base, black, t)))
  return [...tints, toHex(base), ...shades]
}

type Rgb = [number, number, number]

/** Relative luminance (WCAG 2.2). */
export function luminance(hex: string): number {
  const [r, g, b] = toRgb(hex).map((c) => {
    const s = c / 255
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
  }) as Rgb
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** The WCAG contrast ratio of two `#rrggbb` colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number]
  return (hi + 0.05) / (lo + 0.05)
}

/** A colour darkened by a fraction, as Mantine's `darken` does (each channel times 1 − amount). */
export function darken(hex: string, amount: number): string {
  return toHex(toRgb(hex).map((c) => c * (1 - amount)) as Rgb)
}

/**
 * The colour, moved towards black (`'darker'`) or white (`'lighter'`) in small steps until it
 * reads at `min` (4.5:1 for text by default, with a little margin for rounding) against every
 * background given; unchanged when it already does.
 */
export function readable(
  hex: string,
  backgrounds: readonly string[],
  direction: 'darker' | 'lighter',
  min = 4.5,
) {
  const target: Rgb = direction === 'darker' ? [0, 0, 0] : [255, 255, 255]
  const base = toRgb(hex)
  for (let step = 0; step <= 20; step++) {
    const candidate = toHex(mix(base, target, step / 20))
    if (backgrounds.every((bg) => contrast(candidate, bg) >= min + 0.05)) return candidate
  }
  return direction === 'darker' ? '#000000' : '#ffffff'
}
