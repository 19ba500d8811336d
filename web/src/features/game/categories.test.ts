import { describe, expect, it } from 'vitest'
import { ChallengeCategoryValues } from '@/api/schema.gen'
import challenge from '@/i18n/locales/en-US/challenge.json'
import { CATEGORY_META, categoryColor } from './categories'

describe('CATEGORY_META', () => {
  it('describes each of the 13 categories', () => {
    expect(ChallengeCategoryValues).toHaveLength(13)
    expect(Object.keys(CATEGORY_META).sort()).toEqual([...ChallengeCategoryValues].sort())
  })

  it('gives every category its own icon and colour', () => {
    const metas = Object.values(CATEGORY_META)
    expect(new Set(metas.map((m) => m.icon)).size).toBe(metas.length)
    expect(new Set(metas.map((m) => m.color)).size).toBe(metas.length)
  })

  it('has an English name and description for every category', () => {
    for (const category of ChallengeCategoryValues) {
      expect(challenge.category[category]).toBeTruthy()
      expect(challenge.category_description[category]).toBeTruthy()
    }
  })

  it('draws Hardware in the text colour, opposite of the scheme', () => {
    expect(categoryColor('Hardware')).toBe('var(--mantine-color-text)')
    expect(categoryColor('Web')).toBe('var(--mantine-color-blue-light-color)')
  })
})
