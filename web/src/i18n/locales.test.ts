import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import allowEnglish from './allow-english.json'
import { LANGUAGES } from './languages'
import type { Messages } from './translate'

/**
 * The translators' files, checked against en-US (rules in locales/README.md): the same keys, the
 * same `{{placeholders}}`, plural forms that fit the language, and nothing left in English beyond
 * the allow-lists below. Languages whose directory is absent are skipped.
 */
const ROOT = fileURLToPath(new URL('./locales/', import.meta.url))
const SOURCE = 'en-US'

type Leaves = Map<string, string | string[]>

function leaves(node: Messages, prefix = '', out: Leaves = new Map()): Leaves {
  for (const [key, value] of Object.entries(node)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string' || Array.isArray(value)) out.set(path, value)
    else leaves(value, path, out)
  }
  return out
}

function load(code: string): Leaves {
  const out: Leaves = new Map()
  for (const file of readdirSync(`${ROOT}${code}`).filter((f) => f.endsWith('.json'))) {
    const area = file.replace(/\.json$/, '')
    leaves(JSON.parse(readFileSync(`${ROOT}${code}/${file}`, 'utf8')) as Messages, area, out)
  }
  return out
}

const english = load(SOURCE)
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many'] as const
/** en-US plural families: `key` (the "other" form) with `key_one` beside it. */
const families = new Set([...english.keys()].filter((k) => k.endsWith('_one')).map((k) => k.slice(0, -4)))

/** Categories a whole count (0–1000) can reach in a language: `fr` "many" (1 000 000) is not one. */
function countCategories(code: string): Set<string> {
  const rules = new Intl.PluralRules(code)
  const found = new Set<string>()
  for (let n = 0; n <= 1000; n++) found.add(rules.select(n))
  found.delete('other')
  return found
}

/** The keys a language must have: en-US's minus its plural forms, plus the language's own forms. */
function expectedKeys(code: string): Set<string> {
  const forms = countCategories(code)
  const keys = new Set<string>()
  for (const key of english.keys()) {
    const family = CATEGORIES.map((c) => `_${c}`).find(
      (s) => key.endsWith(s) && families.has(key.slice(0, -s.length)),
    )
    if (!family) keys.add(key)
  }
  for (const family of families) for (const form of forms) keys.add(`${family}_${form}`)
  return keys
}

/** The English a key is compared with: a plural form is compared with its family's forms. */
function englishOf(key: string): string[] {
  const own = english.get(key)
  if (typeof own === 'string') return [own]
  const base = key.replace(/_(zero|one|two|few|many)$/, '')
  return [english.get(base), english.get(`${base}_one`)].filter((v): v is string => typeof v === 'string')
}

const placeholders = (text: string) =>
  [...new Set(text.match(/\{\{\s*\w+\s*\}\}/g) ?? [])].map((p) => p.replace(/\s/g, '')).sort()

/** Words that may stay English (allow-english.json, shared with the e2e check). */
const SAME_EVERYWHERE = new Set(allowEnglish.everywhere)
const SAME_IN: Record<string, readonly string[]> = allowEnglish.byLanguage

/** Identical to English is fine when nothing but placeholders, symbols and numbers remain, or allowed. */
function mayStayEnglish(code: string, text: string): boolean {
  const bare = text.replace(/\{\{\s*\w+\s*\}\}/g, '').trim()
  if (!/\p{L}/u.test(bare)) return true
  return SAME_EVERYWHERE.has(bare) || (SAME_IN[code] ?? []).includes(bare)
}

const present = LANGUAGES.map((l) => l.code).filter(
  (code) => code !== SOURCE && readdirSync(ROOT).includes(code),
)

describe('web string files', () => {
  it('en-US is the complete source and every directory is a known language', () => {
    expect(english.size).toBeGreaterThan(500)
    for (const dir of readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()))
      expect(LANGUAGES.map((l) => l.code as string)).toContain(dir.name)
  })

  it('every area file of en-US exists in each present language', () => {
    const areas = readdirSync(`${ROOT}${SOURCE}`).sort()
    for (const code of present) expect(readdirSync(`${ROOT}${code}`).sort(), code).toEqual(areas)
  })

  if (!present.length) it.skip('no translated language is present in this checkout yet', () => {})

  describe.each(present)('%s', (code) => {
    const mine = load(code)

    it('has every key of en-US, with the plural forms of its language, and no other', () => {
      const expected = expectedKeys(code)
      const missing = [...expected].filter((k) => !mine.has(k))
      const extra = [...mine.keys()].filter((k) => !expected.has(k))
      expect({ missing, extra }).toEqual({ missing: [], extra: [] })
    })

    it('keeps the placeholders of each string', () => {
      const wrong: string[] = []
      for (const [key, value] of mine) {
        const source = englishOf(key)
        if (Array.isArray(value) || !source.length) continue
        // A `_one` form may say "one" instead of {{count}} when English does (e.g. "1 solve").
        const allowed = source.map(placeholders)
        const own = placeholders(value)
        const drop = (list: string[]) => list.filter((p) => p !== '{{count}}')
        const ok =
          allowed.some((a) => a.join() === own.join()) ||
          (/_(zero|one|two)$/.test(key) && allowed.some((a) => drop(a).join() === drop(own).join()))
        if (!ok) wrong.push(`${key}: ${JSON.stringify(value)} (English ${JSON.stringify(source[0])})`)
      }
      expect(wrong).toEqual([])
    })

    it('keeps lists as non-empty lists', () => {
      for (const [key, value] of english)
        if (Array.isArray(value))
          expect(Array.isArray(mine.get(key)) && (mine.get(key) as string[]).length > 0, key).toBe(true)
    })

    it('leaves nothing in English beyond the allow-lists', () => {
      const untranslated: string[] = []
      for (const [key, value] of mine) {
        if (typeof value !== 'string') continue
        if (englishOf(key).includes(value) && !mayStayEnglish(code, value))
          untranslated.push(`${key}: ${value}`)
      }
      expect(untranslated).toEqual([])
    })
  })
})
