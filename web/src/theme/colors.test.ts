import { DEFAULT_THEME, mergeMantineTheme } from '@mantine/core'
import { describe, expect, it } from 'vitest'
import { contrast, isHexColor, luminance, paletteOf, providerOf, readable, resolvePrimary } from './colors'
import { cssVariablesResolver, LUMINANCE_THRESHOLD } from './css-variables'
import { buildTheme } from './theme'

describe(isHexColor, () => {
  it.each(['#000000', '#0d7f70', '#ABCDEF'])('accepts %s', (v) => expect(isHexColor(v)).toBe(true))
  it.each(['0d7f70', '#fff', '#0d7f7', '#0d7f700', '#gggggg', 'red', '', null, 12])('rejects %s', (v) =>
    expect(isHexColor(v)).toBe(false),
  )
})

describe(providerOf, () => {
  it('reads the stored value', () => {
    expect(providerOf('')).toBe('Managed')
    expect(providerOf(null)).toBe('Managed')
    expect(providerOf('brand')).toBe('Default')
    expect(providerOf('#123456')).toBe('Custom')
  })

  it('rejects an invalid custom colour, falling back to Managed', () => {
    expect(providerOf('#12345')).toBe('Managed')
    expect(providerOf('javascript:alert(1)')).toBe('Managed')
  })
})

describe(resolvePrimary, () => {
  it('uses the server colour when Managed and valid', () => {
    expect(resolvePrimary('', '#FF0000')).toBe('#ff0000')
  })

  it('uses the brand when the server colour is missing or invalid', () => {
    expect(resolvePrimary('', null)).toBeNull()
    expect(resolvePrimary('', 'red')).toBeNull()
  })

  it('uses the brand for Default whatever the server says', () => {
    expect(resolvePrimary('brand', '#ff0000')).toBeNull()
  })

  it("uses the user's colour for Custom", () => {
    expect(resolvePrimary('#00ff00', '#ff0000')).toBe('#00ff00')
  })
})

describe(paletteOf, () => {
  it('has ten shades from light to dark with the colour itself at index 6', () => {
    const p = paletteOf('#3366cc')
    expect(p).toHaveLength(10)
    expect(p[6]).toBe('#3366cc')
    expect(p[0]).toBe('#eff3fb')
    expect(p[9]).toBe('#1e3b76')
  })
})

describe(contrast, () => {
  it('gives the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#828282', '#242424')).toBeCloseTo(4.04, 2)
  })
})

describe(readable, () => {
  it('keeps a colour that already reads', () => {
    expect(readable('#000000', ['#ffffff'], 'darker')).toBe('#000000')
  })

  it('darkens or lightens until it reads at 4.5:1 on every background', () => {
    const dimmed = readable('#868e96', ['#ffffff', '#e9ecef'], 'darker')
    expect(contrast(dimmed, '#e9ecef')).toBeGreaterThanOrEqual(4.5)
    const dark = readable('#828282', ['#242424', '#3b3b3b'], 'lighter')
    expect(contrast(dark, '#3b3b3b')).toBeGreaterThanOrEqual(4.5)
  })
})

describe('cssVariablesResolver', () => {
  it.each([null, '#ffd43b', '#1c7ed6'])('gives readable tokens for the primary colour %s', (primary) => {
    const theme = mergeMantineTheme(DEFAULT_THEME, buildTheme(primary))
    const { light, dark } = cssVariablesResolver(theme)
    for (const bg of ['#ffffff', '#e9ecef']) {
      expect(contrast(light['--mantine-color-dimmed']!, bg)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(light['--mantine-color-anchor']!, bg)).toBeGreaterThanOrEqual(4.5)
    }
    for (const bg of ['#242424', '#3b3b3b']) {
      expect(contrast(dark['--mantine-color-dimmed']!, bg)).toBeGreaterThanOrEqual(4.5)
      expect(contrast(dark['--mantine-color-anchor']!, bg)).toBeGreaterThanOrEqual(4.5)
    }
    // White text on every filled colour that takes white text.
    for (const [name, shades] of Object.entries(theme.colors)) {
      if (name === 'dark' || luminance(shades[7]) > LUMINANCE_THRESHOLD) continue
      expect(contrast(light[`--mantine-color-${name}-filled`]!, '#ffffff')).toBeGreaterThanOrEqual(4.5)
    }
  })
})
