/**
 * Dynamic flags from templates (game-engine §3.4, with decisions.md item 15).
 *
 * Rules, in order:
 * 1. No template → `flag{<random guid>}`.
 * 2. A leading `[LEET]` or `[CLEET]` is stripped and the rest is leeted with the simple or the
 *    complex table (upstream only did this when `[TEAM_HASH]` was present; we do what the
 *    organiser help text promises, always).
 * 3. Without a prefix: a template with `[GUID]` or `[TEAM_HASH]` is kept as written; any other
 *    template is leeted with the simple table.
 * 4. Every `[GUID]` becomes a random GUID and every `[TEAM_HASH]` the team's 12-hex hash.
 * Leeting only touches text inside `{…}` (and after `]`), never inside `[…]` placeholders,
 * and turns spaces into `_`.
 */

type Table = Record<string, string>

const SIMPLE: Table = {
  A: 'Aa4',
  B: 'Bb68',
  C: 'Cc',
  D: 'Dd',
  E: 'Ee3',
  F: 'Ff1',
  G: 'Gg69',
  H: 'Hh',
  I: 'Ii1l',
  J: 'Jj',
  K: 'Kk',
  L: 'Ll1I',
  M: 'Mm',
  N: 'Nn',
  O: 'Oo0',
  P: 'Pp',
  Q: 'Qq9',
  R: 'Rr',
  S: 'Ss5',
  T: 'Tt7',
  U: 'Uu',
  V: 'Vv',
  W: 'Ww',
  X: 'Xx',
  Y: 'Yy',
  Z: 'Zz2',
  '0': '0oO',
  '1': '1lI',
  '2': '2zZ',
  '3': '3eE',
  '4': '4aA',
  '5': '5Ss',
  '6': '6Gb',
  '7': '7T',
  '8': '8bB',
  '9': '9g',
}
const COMPLEX: Table = {
  ...SIMPLE,
  A: 'Aa4@',
  B: 'Bb6&',
  C: 'Cc(',
  I: 'Ii1l!',
  L: 'Ll1I!',
  O: 'Oo0#',
  S: 'Ss5$',
  Z: 'Zz2?',
  '0': '0oO#',
  '1': '1lI|',
  '2': '2zZ?',
  '8': '8B&',
}

export type Random = (n: number) => number

/** The leet state machine: substitutes characters inside `{…}`, leaving `[…]` alone. */
export function leet(text: string, table: Table, random: Random): string {
  let on = false
  let out = ''
  for (const ch of text) {
    if (ch === '{' || ch === ']') {
      on = true
      out += ch
    } else if (on && (ch === '}' || ch === '[')) {
      on = false
      out += ch
    } else if (ch === ' ') {
      out += '_'
    } else {
      const choices = on ? table[ch.toUpperCase()] : undefined
      out += choices ? choices[random(choices.length)]! : ch
    }
  }
  return out
}

function split(template: string): { body: string; table: Table | null } {
  if (template.startsWith('[CLEET]')) return { body: template.slice(7), table: COMPLEX }
  if (template.startsWith('[LEET]')) return { body: template.slice(6), table: SIMPLE }
  const keep = template.includes('[GUID]') || template.includes('[TEAM_HASH]')
  return { body: template, table: keep ? null : SIMPLE }
}

/** Bits of randomness the leeting adds (a flag is guessable below 32 bits). */
export function leetEntropy(template: string): number {
  const { body, table } = split(template)
  if (!table) return 0
  let on = false
  let bits = 0
  for (const ch of body) {
    if (ch === '{' || ch === ']') on = true
    else if (on && (ch === '}' || ch === '[')) on = false
    else if (on && table[ch.toUpperCase()]) bits += Math.log2(table[ch.toUpperCase()]!.length)
  }
  return bits
}

/** A DynamicContainer template must make each team's flag unguessable from another's. */
export const isTemplateStrong = (template: string) =>
  template.includes('[GUID]') || template.includes('[TEAM_HASH]') || leetEntropy(template) >= 32

export interface FlagSources {
  random: Random
  guid: () => string
  /** The team's 12-hex hash; the literal `TestTeamHash` for admin test containers. */
  teamHash: string
}

export function generateFlag(template: string | null | undefined, src: FlagSources): string {
  if (!template) return `flag{${src.guid()}}`
  const { body, table } = split(template)
  const leeted = table ? leet(body, table, src.random) : body
  return leeted.replaceAll('[GUID]', () => src.guid()).replaceAll('[TEAM_HASH]', src.teamHash)
}
