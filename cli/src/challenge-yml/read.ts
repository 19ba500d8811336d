import { type ReadContext, readCtfcli } from './ctfcli.ts'
import { readGzcli } from './gzcli.ts'
import { Source } from './source.ts'
import { type ChallengeSpec, type Diagnostic, type Dialect, TYPES } from './spec.ts'

export type { ReadContext } from './ctfcli.ts'

export interface ReadResult {
  /** Null when the file has an error. */
  spec: ChallengeSpec | null
  dialect: Dialect | null
  diagnostics: Diagnostic[]
}

const GZCLI_ONLY = [
  'container',
  'provide',
  'visible',
  'disableBloodBonus',
  'deadlineUtc',
  'submissionLimit',
  'scripts',
]
const CTFCLI_ONLY = [
  'files',
  'state',
  'extra',
  'attempts',
  'connection_info',
  'topics',
  'tags',
  'version',
  'attribution',
]

/**
 * Which dialect a file is written in: a GZCTF challenge type (`StaticAttachment`…) or a
 * gzcli-only field means gzcli; a CTFd type (`standard`, `dynamic`) or a ctfcli-only field means
 * ctfcli; with no sign either way, ctfcli (the de-facto format).
 */
export function detectDialect(src: Source): Dialect {
  const type = src.get(['type'])
  if (typeof type === 'string') {
    if ((TYPES as readonly string[]).includes(type)) return 'gzcli'
    if (type === 'standard' || type === 'dynamic') return 'ctfcli'
  }
  const keys = new Set(src.keys())
  if (CTFCLI_ONLY.some((k) => keys.has(k))) return 'ctfcli'
  if (GZCLI_ONLY.some((k) => keys.has(k))) return 'gzcli'
  return 'ctfcli'
}

/** Reads one `challenge.yml` (either dialect) into a spec, with every warning and error found. */
export function readChallengeYml(file: string, text: string, ctx: ReadContext): ReadResult {
  const src = new Source(file, text)
  if (src.hasErrors) return { spec: null, dialect: null, diagnostics: src.diagnostics }
  if (!src.isMapping()) {
    src.error([], 'a challenge.yml must be a mapping of fields')
    return { spec: null, dialect: null, diagnostics: src.diagnostics }
  }
  const dialect = detectDialect(src)
  const body = dialect === 'gzcli' ? readGzcli(src, ctx) : readCtfcli(src, ctx)
  // The server refuses to enable a challenge with no flag; say so here, at the file's line.
  if (body?.isEnabled && body.type !== 'DynamicContainer' && body.flags.length === 0) {
    const field = dialect === 'gzcli' ? 'visible' : 'state'
    const at = src.has([field]) ? [field] : ['flags']
    src.error(
      at,
      `a visible challenge needs at least one flag (add flags, or set ${field === 'state' ? 'state: hidden' : 'visible: false'})`,
    )
  }
  const spec = body && !src.hasErrors ? { key: ctx.key, file, ...body } : null
  const diagnostics = [...src.diagnostics].sort((a, b) => a.line - b.line)
  return { spec, dialect, diagnostics }
}
