import { describe, expect, it } from 'vitest'
import { interpolate, translate, translateList } from './translate'

const en = { common: { hello: 'Hello, {{name}}!', only_en: 'English only', quips: ['a', 'b'] } }
const fr = { common: { hello: 'Bonjour, {{ name }} !' } }

describe(translate, () => {
  it('uses the chosen language first', () => {
    expect(translate([fr, en], 'common.hello', { name: 'Ada' })).toBe('Bonjour, Ada !')
  })

  it('falls back to English for a missing key', () => {
    expect(translate([fr, en], 'common.only_en')).toBe('English only')
  })

  it('shows the key itself when no language has it', () => {
    expect(translate([fr, en], 'common.nope')).toBe('common.nope')
    expect(translate([fr, en], 'common')).toBe('common')
  })
})

describe(interpolate, () => {
  it('leaves unknown placeholders alone and does not escape', () => {
    expect(interpolate('{{a}} {{b}}', { a: '<b>' })).toBe('<b> {{b}}')
  })
})

describe(translateList, () => {
  it('returns lists, with the same fallback', () => {
    expect(translateList([fr, en], 'common.quips')).toEqual(['a', 'b'])
    expect(translateList([fr, en], 'common.hello')).toEqual([])
  })
})
