/**
 * Development pseudo-locales, made from en-US at load time (no files): `en-XA` accents every
 * letter and lengthens each string by ~40% to show where a longer language would truncate;
 * `ar-XB` keeps the text and turns the page right to left. Reached with `?lng=` or local storage
 * `language`, never listed in the language picker. Loaded only when one is in use.
 */
import type { PseudoLanguage } from './languages'
import type { Messages } from './translate'

const ACCENTED: Record<string, string> = Object.fromEntries(
  [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'].map((c, i) => [
    c,
    [...'àƀçđéƒĝĥíĵķĺɱñöþǫŕšţüṽŵẋýžÀƁÇĐÉƑĜĤÍĴĶĹṀÑÖÞǪŔŠŢÜṼŴẊÝŽ'][i] ?? c,
  ]),
)

/** One string accented and padded to ~140% of its length; `{{placeholders}}` kept as they are. */
export function elongate(text: string): string {
  const accented = text
    .split(/(\{\{\s*\w+\s*\}\})/)
    .map((part, i) => (i % 2 ? part : part.replace(/[A-Za-z]/g, (c) => ACCENTED[c] ?? c)))
    .join('')
  const padding = '·'.repeat(Math.max(1, Math.ceil(text.length * 0.4) - 2))
  return `⟦${accented} ${padding}⟧`
}

function mapStrings(messages: Messages, fn: (text: string) => string): Messages {
  const out: Messages = {}
  for (const [key, value] of Object.entries(messages))
    out[key] =
      typeof value === 'string' ? fn(value) : Array.isArray(value) ? value.map(fn) : mapStrings(value, fn)
  return out
}

/** A pseudo-locale's strings for one area, from the English ones. */
export function pseudoMessages(code: PseudoLanguage, english: Messages): Messages {
  return code === 'en-XA' ? mapStrings(english, elongate) : english
}
