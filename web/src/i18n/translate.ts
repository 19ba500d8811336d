/** A language's strings: nested objects of strings (or string lists), keyed by area first. */
export type Messages = { [key: string]: string | string[] | Messages }

function lookup(messages: Messages | undefined, key: string): string | string[] | undefined {
  let node: unknown = messages
  for (const part of key.split('.')) {
    if (!node || typeof node !== 'object' || Array.isArray(node)) return undefined
    node = (node as Messages)[part]
  }
  return typeof node === 'string' || Array.isArray(node) ? node : undefined
}

/**
 * `{{name}}` placeholders, filled without escaping (React escapes what it renders). Numbers are
 * written the language's way (`1,234.5` in English, `1.234,5` in German, `1 234,5` in French).
 */
export function interpolate(text: string, values?: Record<string, unknown>, locale = 'en-US'): string {
  if (!values) return text
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => {
    if (!(name in values)) return whole
    const value = values[name]
    return typeof value === 'number' ? numberFormat(locale).format(value) : String(value ?? '')
  })
}

const numberFormats = new Map<string, Intl.NumberFormat>()
/** The language's number format (cached: building one is slow). */
export function numberFormat(locale: string): Intl.NumberFormat {
  let format = numberFormats.get(locale)
  if (!format) {
    format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })
    numberFormats.set(locale, format)
  }
  return format
}

/**
 * Looks a key up in the chosen language, then in English; a missing key shows itself, so a
 * gap is visible rather than blank. Plurals follow `Intl.PluralRules`: `{count: 1}` reads
 * `key_one` where it exists (`key_other`, `key_few`… likewise), else `key`. Lists (e.g. random placeholders) come back as arrays when
 * `asList` is used.
 */
export function translate(
  chain: readonly (Messages | undefined)[],
  key: string,
  values?: Record<string, unknown>,
  locale = 'en-US',
): string {
  // With a numeric `count`, `key_one`, `key_few`… (the language's plural category) come first.
  const plural =
    typeof values?.count === 'number' ? `${key}_${pluralRules(locale).select(values.count)}` : null
  for (const messages of chain) {
    const found = (plural && lookup(messages, plural)) || lookup(messages, key)
    if (typeof found === 'string') return interpolate(found, values, locale)
  }
  return key
}

const rules = new Map<string, Intl.PluralRules>()
function pluralRules(locale: string): Intl.PluralRules {
  let r = rules.get(locale)
  if (!r) {
    r = new Intl.PluralRules(locale)
    rules.set(locale, r)
  }
  return r
}

export function translateList(chain: readonly (Messages | undefined)[], key: string): string[] {
  for (const messages of chain) {
    const found = lookup(messages, key)
    if (Array.isArray(found)) return found
  }
  return []
}
