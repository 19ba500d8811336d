import { useSyncExternalStore } from 'react'
import { detectLanguage } from './detect'
import { DEFAULT_LANGUAGE, isRightToLeft, type Language, setCurrentLanguage } from './languages'
import { type Messages, translate, translateList } from './translate'

/**
 * Translations are one JSON file per area and language (`locales/<lang>/<area>.json`), each
 * its own chunk loaded on demand, merged at runtime under the area name so keys read
 * `account.login.title`. A key missing in the chosen language falls back to English.
 *
 * This small module replaces i18next: the client needs lookup, `{{value}}` interpolation,
 * fallback and lazy loading, and i18next with its React binding would cost ~18 KB gzip of a
 * 150 KB first-load budget (see README, "Web client").
 */
const files = import.meta.glob<{ default: Messages }>('./locales/*/*.json')

const STORAGE_KEY = 'language'
const loaded = new Map<Language, Messages>()
let language: Language = DEFAULT_LANGUAGE
const listeners = new Set<() => void>()

async function loadLanguage(code: Language): Promise<Messages> {
  const cached = loaded.get(code)
  if (cached) return cached
  const entries = Object.entries(files).filter(([file]) => file.startsWith(`./locales/${code}/`))
  const parts = await Promise.all(
    entries.map(
      async ([file, load]) => [file.split('/').pop()!.replace('.json', ''), (await load()).default] as const,
    ),
  )
  const messages: Messages = Object.fromEntries(parts)
  loaded.set(code, messages)
  return messages
}

function readSafely(read: () => string | null | undefined): string | null {
  try {
    return read() ?? null
  } catch {
    return null
  }
}

/** The language to start in, by the seed's detection order (section 9). */
export function initialLanguage(): Language {
  const params = new URLSearchParams(location.search)
  return detectLanguage({
    query: params.get('lng'),
    cookie: readSafely(() => document.cookie.match(/(?:^|;\s*)i18next=([^;]*)/)?.[1]),
    localStorage: readSafely(() => localStorage.getItem(STORAGE_KEY) ?? localStorage.getItem('i18nextLng')),
    sessionStorage: readSafely(() => sessionStorage.getItem('i18nextLng')),
    navigator: navigator.languages,
    htmlLang: document.documentElement.lang,
  })
}

function apply(code: Language) {
  language = code
  setCurrentLanguage(code)
  document.documentElement.lang = code
  document.documentElement.dir = isRightToLeft(code) ? 'rtl' : 'ltr'
  try {
    localStorage.setItem(STORAGE_KEY, code)
  } catch {}
  for (const listener of listeners) listener()
}

export async function initI18n(): Promise<void> {
  const code = initialLanguage()
  await Promise.all([loadLanguage(DEFAULT_LANGUAGE), loadLanguage(code)])
  apply(code)
}

/** Switches language: loads its strings, then updates the interface, the API and `<html lang>`. */
export async function changeLanguage(code: Language): Promise<void> {
  await loadLanguage(code)
  apply(code)
}

const chain = () => [loaded.get(language), loaded.get(DEFAULT_LANGUAGE)] as const

/** Translates outside React (toasts, helpers). */
export function t(key: string, values?: Record<string, unknown>): string {
  return translate(chain(), key, values)
}

/** A list of strings (random placeholders, quips). */
export function tList(key: string): string[] {
  return translateList(chain(), key)
}

export const getLanguage = () => language

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** `t` for components; they re-render when the language changes. */
export function useTranslation() {
  const current = useSyncExternalStore(subscribe, getLanguage)
  return { t, tList, language: current }
}
