/** The eleven interface languages (seed section 9); the last three are machine translated. */
export const LANGUAGES = [
  { code: 'en-US', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
  { code: 'zh-TW', name: '繁體中文' },
  { code: 'ja-JP', name: '日本語' },
  { code: 'id-ID', name: 'Bahasa Indonesia' },
  { code: 'ko-KR', name: '한국어' },
  { code: 'ru-RU', name: 'Русский' },
  { code: 'vi-VN', name: 'Tiếng Việt' },
  { code: 'de-DE', name: 'Deutsch', machineTranslated: true },
  { code: 'fr-FR', name: 'Français', machineTranslated: true },
  { code: 'es-ES', name: 'Español', machineTranslated: true },
] as const

export type Language = (typeof LANGUAGES)[number]['code']
/** Development pseudo-locales (see pseudo.ts): accented and long, and right to left. */
export const PSEUDO_LANGUAGES = ['en-XA', 'ar-XB'] as const
export type PseudoLanguage = (typeof PSEUDO_LANGUAGES)[number]
export const isPseudo = (code: string | null | undefined): code is PseudoLanguage =>
  (PSEUDO_LANGUAGES as readonly string[]).includes(code ?? '')

/** A picker language or a development pseudo-locale. */
export type UiLanguage = Language | PseudoLanguage
export const DEFAULT_LANGUAGE: Language = 'en-US'

export function isMachineTranslated(code: Language): boolean {
  return LANGUAGES.some((l) => l.code === code && 'machineTranslated' in l)
}

/** Primary subtags written right to left. */
const RTL = new Set([
  'ar',
  'arc',
  'ckb',
  'dv',
  'fa',
  'ha',
  'he',
  'iw',
  'khw',
  'ks',
  'ku',
  'ps',
  'sd',
  'ug',
  'ur',
  'yi',
])

export function isRightToLeft(code: string): boolean {
  return RTL.has(code.split('-')[0]?.toLowerCase() ?? '')
}

let current: UiLanguage = DEFAULT_LANGUAGE

/** The language the API is asked to answer in (`Accept-Language`). */
export const currentLanguage = () => current
export const setCurrentLanguage = (code: UiLanguage) => {
  current = code
}
