import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseSync } from 'vite'
import { describe, expect, it } from 'vitest'

/**
 * No user-visible text written into components: JSX text and the props a user reads or hears
 * (label, title, placeholder, aria-label…) must come from `t()`. Text without letters (symbols,
 * numbers, punctuation) is fine; so are the few names below that are never translated.
 */
const SRC = fileURLToPath(new URL('../', import.meta.url))
const VISIBLE_PROPS = new Set([
  'label',
  'title',
  'placeholder',
  'aria-label',
  'aria-description',
  'alt',
  'description',
  'error',
  'message',
  'tooltip',
  'confirmLabel',
  'cancelLabel',
  'nothingFoundMessage',
])
/** Names shown as they are in every language (brands, protocol names). */
const ALLOWED = new Set([
  'Pennant',
  'GZCTF',
  'GitHub',
  'Docker',
  'WebSocket',
  'TCP',
  'PDF',
  'QR',
  'API',
  'URL',
  'wsrx', // the tunnelling daemon's name (seed §8)
])

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = `${dir}${entry.name}`
    if (entry.isDirectory()) return files(`${full}/`)
    return /\.tsx?$/.test(entry.name) && !/\.(test|gen|d)\.tsx?$/.test(entry.name) ? [full] : []
  })
}

/** Elements whose text is code or keys, the same in every language. */
const CODE_ELEMENTS = new Set(['Code', 'Kbd', 'code', 'kbd', 'pre', 'samp'])

/**
 * Whether a text holds a word of prose: letters only, maybe ending in punctuation. Tokens such as
 * `tunnel.mjs`, `#rrggbb`, `[TEAM_HASH]` or `https://…` are machine text, not language.
 */
const hasWords = (text: string) =>
  text
    .split(/\s+/)
    .some((w) => /^\p{L}[\p{L}'’-]*[.,:;!?…]?$/u.test(w) && !ALLOWED.has(w.replace(/[.,:;!?…]$/, '')))

type Node = { type?: string; start: number; [key: string]: unknown }

/** Where a node is, as `path:line`. */
function line(code: string, offset: number): number {
  let n = 1
  for (let i = 0; i < offset; i++) if (code.charCodeAt(i) === 10) n++
  return n
}

function findings(file: string): string[] {
  const code = readFileSync(file, 'utf8')
  const { program } = parseSync(file, code, { lang: 'tsx' })
  const out: string[] = []
  const where = (node: Node) => `${file.slice(SRC.length)}:${line(code, node.start)}`
  const visit = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    if (Array.isArray(node)) return node.forEach(visit)
    const n = node as Node
    if (n.type === 'JSXElement') {
      const name = ((n.openingElement as Node).name as { name?: unknown }).name
      if (typeof name === 'string' && CODE_ELEMENTS.has(name)) {
        visit((n.openingElement as Node).attributes)
        return
      }
    }
    if (n.type === 'JSXText' && hasWords(String(n.value)))
      out.push(`${where(n)} text "${String(n.value).trim()}"`)
    if (n.type === 'JSXAttribute') {
      const name = (n.name as { name?: unknown }).name
      const value = n.value as Node | null
      const literal =
        value?.type === 'Literal'
          ? value
          : value?.type === 'JSXExpressionContainer'
            ? (value.expression as Node)
            : null
      const text =
        literal?.type === 'Literal' && typeof literal.value === 'string'
          ? literal.value
          : literal?.type === 'TemplateLiteral' && !(literal.expressions as unknown[]).length
            ? String((literal.quasis as { value: { cooked: string } }[])[0]?.value.cooked ?? '')
            : null
      if (typeof name === 'string' && VISIBLE_PROPS.has(name) && text !== null && hasWords(text))
        out.push(`${where(n)} ${name}="${text}"`)
    }
    // The same props passed as objects (toasts, confirmations, options of a select).
    if (n.type === 'Property' && !n.computed) {
      const key = n.key as Node & { name?: string; value?: unknown }
      const name = key.type === 'Identifier' ? key.name : key.type === 'Literal' ? String(key.value) : ''
      const value = n.value as Node
      if (
        VISIBLE_PROPS.has(name ?? '') &&
        value.type === 'Literal' &&
        typeof value.value === 'string' &&
        hasWords(value.value)
      )
        out.push(`${where(n)} ${name}: "${value.value}"`)
    }
    for (const [key, child] of Object.entries(n)) if (key !== 'parent') visit(child)
  }
  visit(program)
  return out
}

describe('components', () => {
  it('write no user-visible text outside t()', () => {
    const all = files(SRC).flatMap(findings)
    expect(all, all.join('\n')).toEqual([])
  })

  it('the check finds hard-coded text (so it can fail)', () => {
    const here = fileURLToPath(new URL('./fixtures/hardcoded.tsx.txt', import.meta.url))
    expect(findings(here)).toHaveLength(4)
  })
})
