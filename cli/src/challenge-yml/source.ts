import { type Document, isMap, isNode, isScalar, LineCounter, parseDocument } from 'yaml'
import type { Diagnostic } from './spec.ts'

export type Path = (string | number)[]

/** `flags[2].type` from `['flags', 2, 'type']`. */
export const fieldName = (path: Path) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('')

/**
 * One parsed `challenge.yml` with its source positions, and the diagnostics found in it. Every
 * reader takes the path of the field, so each message names the file, the line and the field.
 */
export class Source {
  readonly diagnostics: Diagnostic[] = []
  readonly doc: Document
  private readonly lines = new LineCounter()

  constructor(
    readonly file: string,
    text: string,
  ) {
    this.doc = parseDocument(text, { lineCounter: this.lines, prettyErrors: false, uniqueKeys: true })
    for (const e of this.doc.errors) {
      const line = this.lines.linePos(e.pos[0]).line
      this.diagnostics.push({
        severity: 'error',
        file,
        line,
        field: '(yaml)',
        message: e.message.split('\n')[0]!,
      })
    }
  }

  get hasErrors() {
    return this.diagnostics.some((d) => d.severity === 'error')
  }

  /** The line of the field's value, else of its key, else of the closest parent that exists. */
  line(path: Path): number {
    for (let n = path.length; n >= 0; n--) {
      const here = path.slice(0, n)
      const node = n === 0 ? this.doc.contents : this.doc.getIn(here, true)
      if (isNode(node) && node.range) {
        // An empty value (`image:`) sits at the end of its key's line; report the key's line.
        if (isScalar(node) && node.value === null && n > 0)
          return this.keyLine(here) ?? this.pos(node.range[0])
        return this.pos(node.range[0])
      }
      if (n > 0) {
        const line = this.keyLine(here)
        if (line) return line
      }
    }
    return 1
  }

  private keyLine(path: Path): number | null {
    const parent = path.length === 1 ? this.doc.contents : this.doc.getIn(path.slice(0, -1), true)
    if (!isMap(parent)) return null
    const pair = parent.items.find((p) => isScalar(p.key) && p.key.value === path.at(-1))
    return pair && isNode(pair.key) && pair.key.range ? this.pos(pair.key.range[0]) : null
  }

  private pos(offset: number) {
    return this.lines.linePos(offset).line
  }

  error(path: Path, message: string) {
    this.diagnostics.push({
      severity: 'error',
      file: this.file,
      line: this.line(path),
      field: fieldName(path),
      message,
    })
  }

  warn(path: Path, message: string) {
    this.diagnostics.push({
      severity: 'warning',
      file: this.file,
      line: this.line(path),
      field: fieldName(path),
      message,
    })
  }

  /** The plain value at `path` (undefined when absent). */
  get(path: Path): unknown {
    const v = this.doc.getIn(path, false)
    return isNode(v) ? v.toJSON() : v
  }

  has(path: Path): boolean {
    return this.doc.hasIn(path)
  }

  /** Keys of the mapping at `path` (the top level when empty). */
  keys(path: Path = []): string[] {
    const node = path.length === 0 ? this.doc.contents : this.doc.getIn(path, true)
    return isMap(node) ? node.items.map((p) => String(isScalar(p.key) ? p.key.value : p.key)) : []
  }

  isMapping(path: Path = []): boolean {
    const node = path.length === 0 ? this.doc.contents : this.doc.getIn(path, true)
    return isMap(node)
  }

  /** A string; numbers are accepted and written as text (YAML reads `1.0` as a number). */
  string(
    path: Path,
    opts: { required?: boolean; nonEmpty?: boolean; max?: number } = {},
  ): string | undefined {
    const v = this.get(path)
    if (v === undefined || v === null) {
      if (opts.required) this.error(path, 'is required')
      return undefined
    }
    if (typeof v !== 'string' && typeof v !== 'number') {
      this.error(path, `must be text, not ${describe(v)}`)
      return undefined
    }
    const s = String(v)
    if (opts.nonEmpty && s.trim() === '') {
      this.error(path, 'must not be empty')
      return undefined
    }
    if (opts.max !== undefined && s.length > opts.max) {
      this.error(path, `is ${s.length} characters long; at most ${opts.max}`)
      return undefined
    }
    return s
  }

  integer(path: Path, min: number, max: number): number | undefined {
    const v = this.get(path)
    if (v === undefined || v === null) return undefined
    const n = typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : v
    if (typeof n !== 'number' || !Number.isInteger(n)) {
      this.error(path, `must be a whole number, not ${describe(v)}`)
      return undefined
    }
    if (n < min || n > max) {
      this.error(path, `must be between ${min} and ${max}, not ${n}`)
      return undefined
    }
    return n
  }

  number(path: Path, min: number, max: number): number | undefined {
    const v = this.get(path)
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'number' || !Number.isFinite(v)) {
      this.error(path, `must be a number, not ${describe(v)}`)
      return undefined
    }
    if (v < min || v > max) {
      this.error(path, `must be between ${min} and ${max}, not ${v}`)
      return undefined
    }
    return v
  }

  boolean(path: Path): boolean | undefined {
    const v = this.get(path)
    if (v === undefined || v === null) return undefined
    if (typeof v !== 'boolean') {
      this.error(path, `must be true or false, not ${describe(v)}`)
      return undefined
    }
    return v
  }

  /** A list (a lone scalar is read as a list of one); undefined when absent. */
  list(path: Path): unknown[] | undefined {
    const v = this.get(path)
    if (v === undefined || v === null) return undefined
    if (Array.isArray(v)) return v
    this.error(path, `must be a list, not ${describe(v)}`)
    return undefined
  }

  /** Warns once for every top-level key not in `known`, and for each key in `ignored` that is set. */
  warnIgnored(known: Set<string>, ignored: Record<string, string>) {
    for (const key of this.keys()) {
      if (key in ignored) {
        if (this.get([key]) !== null) this.warn([key], `ignored: ${ignored[key]}`)
      } else if (!known.has(key)) {
        this.warn([key], 'ignored: not a field this dialect defines')
      }
    }
  }
}

export function describe(v: unknown): string {
  if (Array.isArray(v)) return 'a list'
  if (v === null) return 'null'
  if (typeof v === 'object') return 'a mapping'
  if (typeof v === 'string') return `"${v.length > 40 ? `${v.slice(0, 40)}…` : v}"`
  return String(v)
}
