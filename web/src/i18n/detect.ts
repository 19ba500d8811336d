import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './languages'

/** A language tag and nothing else: anything with markup, quotes or spaces is discarded. */
const TAG = /^[A-Za-z]{2,3}([-_][A-Za-z0-9]{2,8}){0,3}$/

/** Maps any tag onto a supported language: exact match first, then the primary subtag. */
export function toSupported(value: string | null | undefined): Language | null {
  if (!value) return null
  const raw = value.trim()
  if (raw.length > 35 || !TAG.test(raw)) return null
  const tag = raw.replace('_', '-').toLowerCase()
  const exact = LANGUAGES.find((l) => l.code.toLowerCase() === tag)
  if (exact) return exact.code
  const [primary, ...rest] = tag.split('-')
  if (primary === 'zh') {
    const traditional = rest.some((part) => ['tw', 'hk', 'mo', 'hant'].includes(part))
    return traditional ? 'zh-TW' : 'zh-CN'
  }
  return LANGUAGES.find((l) => l.code.split('-')[0]?.toLowerCase() === primary)?.code ?? null
}

/** Where a language may come from, in the seed's order (section 9). */
export interface DetectionSources {
  query?: string | null
  cookie?: string | null
  localStorage?: string | null
  sessionStorage?: string | null
  navigator?: readonly string[]
  htmlLang?: string | null
}

/** The first usable language of the sources, or English. Unusable values are skipped. */
export function detectLanguage(sources: DetectionSources): Language {
  const candidates = [
    sources.query,
    sources.cookie,
    sources.localStorage,
    sources.sessionStorage,
    ...(sources.navigator ?? []),
    sources.htmlLang,
  ]
  for (const candidate of candidates) {
    const found = toSupported(candidate)
    if (found) return found
  }
  return DEFAULT_LANGUAGE
}
