import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { RUNTIME } from '../paths.ts'
import { CULTURES } from './culture.ts'
import { englishTitles } from './errors.ts'

const LOCALES_DIR = RUNTIME.locales

/**
 * The translators' title files (see locales/README.md): each present `<culture>.json` has every
 * catalogue key and no other, keeps the `{0}` placeholders, and says something other than the
 * English title (a title is a sentence: none may stay English).
 */
const files = readdirSync(LOCALES_DIR).filter((name) => name.endsWith('.json'))
const placeholders = (text: string) => (text.match(/\{\d+\}/g) ?? []).sort()

describe('server error title files', () => {
  it('are named after the contract cultures', () => {
    for (const name of files) expect(CULTURES.map((c) => `${c}.json`)).toContain(name)
    expect(files).not.toContain('en-US.json')
  })

  describe.each(files.length ? files : ['(none yet)'])('%s', (name) => {
    if (name === '(none yet)') {
      it.skip('no translated title file is present in this checkout', () => {})
      return
    }
    const titles = JSON.parse(readFileSync(path.join(LOCALES_DIR, name), 'utf8')) as Record<string, unknown>

    it('has every catalogue key and no other', () => {
      expect(Object.keys(titles).sort()).toEqual(Object.keys(englishTitles).sort())
    })

    it('keeps the placeholders and translates every title', () => {
      for (const [key, english] of Object.entries(englishTitles)) {
        const title = titles[key]
        if (typeof title !== 'string') continue // reported by the key check above
        expect.soft(placeholders(title), `${name} ${key}`).toEqual(placeholders(english))
        expect.soft(title.trim(), `${name} ${key} is still English`).not.toBe(english)
        expect.soft(title.trim().length, `${name} ${key} is empty`).toBeGreaterThan(0)
      }
    })
  })
})
