import { hasPlaceholder, readCategory, readHandout } from './common.ts'
import { describe, type Source } from './source.ts'
import type { ChallengeSpec } from './spec.ts'

export interface ReadContext {
  key: string
  /** Folder holding the file; handout paths are relative to it. */
  dir: string
  /** The parent folder's name, for files that name no category. */
  folderCategory: string | null
}

const KNOWN = new Set([
  'name',
  'category',
  'description',
  'value',
  'type',
  'extra',
  'connection_info',
  'attempts',
  'flags',
  'hints',
  'files',
  'state',
  'scheduled_at',
])

/** Fields with no Pennant counterpart, and why they are dropped. */
const IGNORED: Record<string, string> = {
  author: 'Pennant challenges have no author field (write it in the description)',
  attribution: 'Pennant challenges have no attribution field (write it in the description)',
  image: 'pennant does not build or deploy shared services; use a gzcli-style container for per-team ones',
  protocol: 'pennant does not deploy shared services',
  host: 'pennant does not deploy shared services',
  healthcheck: 'pennant does not run health checks',
  solution: 'Pennant has no solution documents',
  logic: 'Pennant accepts any one of the flags',
  topics: 'Pennant has no topics',
  tags: 'Pennant has no tags',
  requirements: 'Pennant has no challenge prerequisites',
  next: 'Pennant has no "next challenge" link',
  module: 'Pennant has no modules',
  version: 'only marks the ctfcli spec version',
}

const MAX_SCORE = 1_000_000

/** Reads a ctfcli `challenge.yml` (CTFd's de-facto format). */
export function readCtfcli(src: Source, ctx: ReadContext): Omit<ChallengeSpec, 'key' | 'file'> | null {
  src.warnIgnored(KNOWN, IGNORED)

  const title = src.string(['name'], { required: true, nonEmpty: true, max: 128 })
  if (title && hasPlaceholder(title)) src.warn(['name'], 'contains a template placeholder, used as written')

  const categoryText = src.string(['category'], { nonEmpty: true }) ?? ctx.folderCategory
  if (categoryText === null)
    src.error(['category'], 'is required (or put the challenge in a folder named after it)')
  const category = categoryText
    ? readCategory(src, src.has(['category']) ? ['category'] : null, categoryText)
    : 'Misc'

  let content = src.string(['description']) ?? ''
  const connection = src.string(['connection_info'])
  if (connection) content = `${content.trimEnd()}\n\n${connection}`.trimStart()

  const scoring = readScoring(src)
  const submissionLimit = src.integer(['attempts'], 0, 10_000)
  const flags = readFlags(src)
  const hints = readHints(src)

  const files = src.list(['files']) ?? []
  const entries = files.flatMap((value, i) => {
    if (typeof value === 'string' && value.trim()) return [{ path: ['files', i], value: value.trim() }]
    src.error(['files', i], `must be a path or URL, not ${describe(value)}`)
    return []
  })
  const attachment = readHandout(src, ctx.dir, entries)

  const state = src.string(['state'])
  let isEnabled: boolean | undefined = true // ctfcli: a challenge without `state` is visible
  if (state !== undefined) {
    if (state === 'hidden' || state === 'visible') isEnabled = state === 'visible'
    else src.error(['state'], `must be hidden or visible, not "${state}"`)
  }

  const openAt = readInstant(src)

  if (src.hasErrors || !title) return null
  return {
    dialect: 'ctfcli',
    title,
    category,
    type: 'StaticAttachment',
    content,
    hints,
    flags,
    flagTemplate: null,
    isEnabled,
    ...scoring,
    ...(submissionLimit !== undefined ? { submissionLimit } : {}),
    ...(openAt !== undefined ? { openAt } : {}),
    attachment,
    container: null,
  }
}

type Scoring = Pick<ChallengeSpec, 'originalScore' | 'minScoreRate' | 'difficulty'>

/**
 * `standard`: a fixed score (min score rate 1). `dynamic`: CTFd's decay curve, mapped onto
 * Pennant's exponential one: same start and floor, and within 5% of the floor after the number
 * of solves at which CTFd reaches it.
 */
function readScoring(src: Source): Scoring {
  const type = src.string(['type']) ?? 'standard'
  const value = src.integer(['value'], 0, MAX_SCORE)
  if (type === 'standard') {
    if (src.has(['extra'])) src.warn(['extra'], 'ignored: only dynamic challenges use it')
    return value === undefined ? {} : { originalScore: value, minScoreRate: 1 }
  }
  if (type !== 'dynamic') {
    src.error(['type'], `"${type}" is not a ctfcli type pennant knows (standard, dynamic)`)
    return {}
  }
  const initial = src.integer(['extra', 'initial'], 1, MAX_SCORE) ?? value
  const minimum = src.integer(['extra', 'minimum'], 0, MAX_SCORE)
  const decay = src.number(['extra', 'decay'], 0, MAX_SCORE)
  const fn = src.string(['extra', 'function']) ?? 'logarithmic'
  if (initial === undefined) src.error(['extra', 'initial'], 'is required for a dynamic challenge')
  if (minimum === undefined) src.error(['extra', 'minimum'], 'is required for a dynamic challenge')
  if (decay === undefined) src.error(['extra', 'decay'], 'is required for a dynamic challenge')
  if (fn !== 'logarithmic' && fn !== 'linear')
    src.error(['extra', 'function'], `must be logarithmic or linear, not "${fn}"`)
  if (initial === undefined || minimum === undefined || decay === undefined) return {}
  if (minimum > initial) {
    src.error(['extra', 'minimum'], `must not exceed the initial value ${initial}`)
    return {}
  }
  // CTFd reaches the minimum after `decay` solves (logarithmic), or after (initial-minimum)/decay (linear).
  const solves = fn === 'linear' ? (decay > 0 ? (initial - minimum) / decay : 0) : decay
  const difficulty = Math.round((solves / Math.log(20)) * 100) / 100
  src.warn(
    ['extra', 'decay'],
    `CTFd's ${fn} curve has no exact Pennant equivalent: difficulty ${difficulty} puts the score within 5% of the minimum after ${Math.round(solves)} solves`,
  )
  return { originalScore: initial, minScoreRate: Math.round((minimum / initial) * 1e6) / 1e6, difficulty }
}

function readFlags(src: Source): string[] {
  const flags: string[] = []
  const list = src.list(['flags']) ?? []
  list.forEach((item, i) => {
    if (typeof item === 'string' || typeof item === 'number') {
      flags.push(String(item))
      return
    }
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      src.error(['flags', i], `must be a flag or a mapping with content, not ${describe(item)}`)
      return
    }
    const type = src.string(['flags', i, 'type']) ?? 'static'
    const content = src.string(['flags', i, 'content'], { required: true, nonEmpty: true })
    const data = src.string(['flags', i, 'data'])
    if (type === 'regex') {
      src.error(
        ['flags', i, 'type'],
        'Pennant matches flags exactly and cannot honour a regex flag; list the exact flags instead',
      )
      return
    }
    if (type !== 'static') src.error(['flags', i, 'type'], `must be static, not "${type}"`)
    if (data === 'case_insensitive') {
      src.error(
        ['flags', i, 'data'],
        'Pennant matches flags exactly and cannot honour a case-insensitive flag; drop `data` to match this exact spelling',
      )
    } else if (data !== undefined && data !== 'case_sensitive' && data !== '') {
      src.error(['flags', i, 'data'], `must be case_sensitive or case_insensitive, not "${data}"`)
    }
    if (content !== undefined) flags.push(content)
  })
  flags.forEach((f, i) => {
    if (f.length > 127)
      src.error(['flags', i], `is ${f.length} characters long; Pennant flags hold at most 127`)
  })
  return flags
}

function readHints(src: Source): string[] {
  const hints: string[] = []
  const list = src.list(['hints']) ?? []
  list.forEach((item, i) => {
    if (typeof item === 'string') {
      hints.push(item)
      return
    }
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      src.error(['hints', i], `must be text or a mapping with content, not ${describe(item)}`)
      return
    }
    const content = src.string(['hints', i, 'content'], { required: true, nonEmpty: true })
    for (const k of src.keys(['hints', i])) {
      if (k === 'content') continue
      const why =
        k === 'cost'
          ? 'Pennant hints are free'
          : k === 'title'
            ? 'Pennant hints have no title'
            : k === 'requirements' || k === 'key'
              ? 'Pennant hints have no prerequisites'
              : 'not a hint field'
      src.warn(['hints', i, k], `ignored: ${why}`)
    }
    if (content !== undefined) hints.push(content)
  })
  return hints
}

/** `scheduled_at`: ISO 8601 with an explicit offset, as ctfcli demands. */
function readInstant(src: Source): number | null | undefined {
  if (!src.has(['scheduled_at'])) return undefined
  const v = src.get(['scheduled_at'])
  if (v === null) return null
  if (typeof v !== 'string' || !/(Z|[+-]\d\d:?\d\d)$/.test(v) || Number.isNaN(Date.parse(v))) {
    src.error(['scheduled_at'], `must be an ISO 8601 date with a time zone offset, not ${describe(v)}`)
    return undefined
  }
  return Date.parse(v)
}
