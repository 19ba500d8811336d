import { useSyncExternalStore } from 'react'
import { detectLanguage, toSupported } from './detect'
import {
  DEFAULT_LANGUAGE,
  isPseudo,
  isRightToLeft,
  type Language,
  setCurrentLanguage,
  type UiLanguage,
} from './languages'
import englishCommon from './locales/en-US/common.json'
import { type Messages, translate, translateList } from './translate'

/**
 * Translations are one JSON file per area and language (`locales/<lang>/<area>.json`), each its
 * own chunk. `common` loads at start; a route loads the areas its page needs together with the
 * page (`loadAreas`, see app/router.tsx), so no page pays for another's strings. Keys read
 * `<area>.<group>.<key>`; a key missing in the chosen language falls back to English.
 *
 * This small module replaces i18next: the client needs lookup, `{{value}}` interpolation,
 * fallback and lazy loading, and i18next with its React binding would cost ~18 KB gzip of a
 * 150 KB first-load budget (see README, "Web client").
 */
// The English common strings come with the start-up code: every page shows them (or falls back
// to them), so a request of their own would only add a round trip to every first load.
const files = import.meta.glob<{ default: Messages }>(['./locales/*/*.json', '!./locales/en-US/common.json'])

const STORAGE_KEY = 'language'
/** language → area → strings; an area present here is loaded (possibly empty: no file). */
const loaded = new Map<UiLanguage, Map<string, Messages>>()
const pending = new Map<string, Promise<void>>()
let language: UiLanguage = DEFAULT_LANGUAGE
loaded.set(DEFAULT_LANGUAGE, new Map([['common', englishCommon as Messages]]))
/** Bumped when strings arrive, so components re-render with them. */
let version = 0
const listeners = new Set<() => void>()

function emit() {
  version++
  for (const listener of listeners) listener()
}

function areasOf(code: UiLanguage): Map<string, Messages> {
  const known = loaded.get(code)
  if (known) return known
  const areas = new Map<string, Messages>()
  loaded.set(code, areas)
  return areas
}

/** Loads one area of one language (a missing file counts as loaded and empty). */
function loadArea(code: UiLanguage, area: string): Promise<void> {
  if (loaded.get(code)?.has(area)) return Promise.resolve()
  const key = `${code}/${area}`
  let running = pending.get(key)
  if (!running) {
    const file = files[`./locales/${code}/${area}.json`]
    const messages = isPseudo(code)
      ? // A pseudo-locale is made from the English strings (pseudo.ts, its own chunk).
        Promise.all([import('./pseudo'), loadArea(DEFAULT_LANGUAGE, area)]).then(([{ pseudoMessages }]) =>
          pseudoMessages(code, loaded.get(DEFAULT_LANGUAGE)?.get(area) ?? {}),
        )
      : file
        ? file().then((m) => m.default)
        : Promise.resolve({} as Messages)
    running = messages
      .then((messages) => {
        areasOf(code).set(area, messages)
      })
      .finally(() => pending.delete(key))
    pending.set(key, running)
  }
  return running
}

/** Makes the areas' strings ready in the current language and in English. */
export async function loadAreas(areas: readonly string[]): Promise<void> {
  const missing = areas.filter((a) => !loaded.get(language)?.has(a) || !loaded.get(DEFAULT_LANGUAGE)?.has(a))
  if (!missing.length) return
  await Promise.all(missing.flatMap((a) => [loadArea(language, a), loadArea(DEFAULT_LANGUAGE, a)]))
  emit()
}

function readSafely(read: () => string | null | undefined): string | null {
  try {
    return read() ?? null
  } catch {
    return null
  }
}

/**
 * The language to start in, by the seed's detection order (section 9). A pseudo-locale counts only
 * from `?lng=` or, unless the query names a real language, from local storage (development).
 */
export function initialLanguage(): UiLanguage {
  const params = new URLSearchParams(location.search)
  const query = params.get('lng')
  if (isPseudo(query)) return query
  const stored = readSafely(() => localStorage.getItem(STORAGE_KEY))
  if (isPseudo(stored) && !toSupported(query)) return stored
  return detectLanguage({
    query: params.get('lng'),
    cookie: readSafely(() => document.cookie.match(/(?:^|;\s*)i18next=([^;]*)/)?.[1]),
    localStorage: readSafely(() => localStorage.getItem(STORAGE_KEY) ?? localStorage.getItem('i18nextLng')),
    sessionStorage: readSafely(() => sessionStorage.getItem('i18nextLng')),
    navigator: navigator.languages,
    htmlLang: document.documentElement.lang,
  })
}

function apply(code: UiLanguage) {
  language = code
  setCurrentLanguage(code)
  document.documentElement.lang = code
  document.documentElement.dir = isRightToLeft(code) ? 'rtl' : 'ltr'
  try {
    localStorage.setItem(STORAGE_KEY, code)
  } catch {}
  emit()
}

export async function initI18n(): Promise<void> {
  language = initialLanguage()
  // Requests sent while the strings load (the page's data, fetched early) ask in this language.
  setCurrentLanguage(language)
  await loadAreas(['common'])
  apply(language)
}

/** Switches language: loads the areas in use in it, then updates the interface, API and `<html lang>`. */
export async function changeLanguage(code: Language): Promise<void> {
  const inUse = [...areasOf(language).keys()]
  await Promise.all(inUse.flatMap((a) => [loadArea(code, a), loadArea(DEFAULT_LANGUAGE, a)]))
  apply(code)
}

function chain(area: string): readonly (Messages | undefined)[] {
  const mine = loaded.get(language)?.get(area)
  const english = loaded.get(DEFAULT_LANGUAGE)?.get(area)
  return [mine && { [area]: mine }, english && { [area]: english }]
}

const areaOf = (key: string) => key.slice(0, key.indexOf('.') >>> 0)

/** Whether an area's strings are here; if not, they are fetched and components re-render. */
function ready(area: string): boolean {
  if (loaded.get(language)?.has(area) && loaded.get(DEFAULT_LANGUAGE)?.has(area)) return true
  // A safety net for a route that did not list an area: fetch it now, show it when it comes.
  void loadAreas([area])
  return false
}

/** Translates outside React (toasts, helpers). Empty while the key's area is still loading. */
export function t(key: string, values?: Record<string, unknown>): string {
  const area = areaOf(key)
  return ready(area) ? translate(chain(area), key, values, language) : ''
}

/** A list of strings (random placeholders, quips). */
export function tList(key: string): string[] {
  const area = areaOf(key)
  return ready(area) ? translateList(chain(area), key) : []
}

export const getLanguage = () => language

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** `t` for components; they re-render when the language changes or strings arrive. */
export function useTranslation() {
  useSyncExternalStore(subscribe, () => version)
  return { t, tList, language }
}
