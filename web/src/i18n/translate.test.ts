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

describe('plurals', () => {
  const en = { game: { solves: '{{count}} solves', solves_one: '{{count}} solve' } }
  const ru = {
    game: { solves: '{{count}} решений', solves_one: '{{count}} решение', solves_few: '{{count}} решения' },
  }
  it('picks the form the language needs for the count, else the plain key', () => {
    expect(translate([en], 'game.solves', { count: 1 })).toBe('1 solve')
    expect(translate([en], 'game.solves', { count: 0 })).toBe('0 solves')
    expect(translate([en], 'game.solves', { count: 21 })).toBe('21 solves')
    expect(translate([ru, en], 'game.solves', { count: 21 }, 'ru-RU')).toBe('21 решение')
    expect(translate([ru, en], 'game.solves', { count: 3 }, 'ru-RU')).toBe('3 решения')
    expect(translate([ru, en], 'game.solves', { count: 5 }, 'ru-RU')).toBe('5 решений')
    expect(translate([en], 'game.solves', { count: '1' })).toBe('1 solves')
  })
})

describe(interpolate, () => {
  it('writes numbers the way the language does', () => {
    expect(interpolate('{{n}} pts', { n: 12345.5 })).toBe('12,345.5 pts')
    expect(interpolate('{{n}} Pkt.', { n: 12345.5 }, 'de-DE')).toBe('12.345,5 Pkt.')
    expect(interpolate('{{n}}', { n: 12345 }, 'fr-FR')).toBe('12\u202f345')
    expect(translate([{ a: { n: '{{count}}' } }], 'a.n', { count: 1000 }, 'ru-RU')).toBe('1\u00a0000')
  })

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
