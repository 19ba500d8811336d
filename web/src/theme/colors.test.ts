import { describe, expect, it } from 'vitest'
import { isHexColor, paletteOf, providerOf, resolvePrimary } from './colors'

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
