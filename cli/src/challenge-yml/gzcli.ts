import { hasPlaceholder, readCategory, readHandout } from './common.ts'
import type { ReadContext } from './ctfcli.ts'
import { describe, type Path, type Source } from './source.ts'
import { type ChallengeSpec, type ContainerSpec, isContainerType, TYPES } from './spec.ts'

const KNOWN = new Set([
  'name',
  'category',
  'description',
  'flags',
  'value',
  'provide',
  'visible',
  'type',
  'hints',
  'container',
  'disableBloodBonus',
  'deadlineUtc',
  'submissionLimit',
])

const IGNORED: Record<string, string> = {
  author: 'Pennant challenges have no author field (write it in the description)',
  scripts: 'pennant does not run build or deploy scripts; build and push the image first',
  dashboard: 'Pennant has no per-challenge dashboard',
}

const CONTAINER_KNOWN = new Set([
  'flagTemplate',
  'containerImage',
  'memoryLimit',
  'cpuCount',
  'storageLimit',
  'exposePort',
  'containerExposePort',
  'enableTrafficCapture',
])

/** Reads a gzcli `challenge.yml` (the GZCTF community tool's format, with container fields). */
export function readGzcli(src: Source, ctx: ReadContext): Omit<ChallengeSpec, 'key' | 'file'> | null {
  src.warnIgnored(KNOWN, IGNORED)

  const title = src.string(['name'], { required: true, nonEmpty: true, max: 128 })
  const categoryText = src.string(['category'], { nonEmpty: true }) ?? ctx.folderCategory
  if (categoryText === null)
    src.error(['category'], 'is required (or put the challenge in a folder named after it)')
  const category = categoryText
    ? readCategory(src, src.has(['category']) ? ['category'] : null, categoryText)
    : 'Misc'

  const typeText = src.string(['type'], { required: true })
  const type = TYPES.find((t) => t === typeText)
  if (typeText !== undefined && !type)
    src.error(['type'], `must be one of ${TYPES.join(', ')}, not "${typeText}"`)
  if (type === 'DynamicAttachment') {
    src.error(['type'], 'DynamicAttachment (one handout per flag) is not supported by pennant yet')
  }

  const content = src.string(['description']) ?? ''
  if (hasPlaceholder(content))
    src.warn(['description'], 'gzcli template placeholders ({{...}}) are left as written')

  // gzcli: the value is the starting score; the floor is 10% from 100 points up, else fixed.
  const value = src.integer(['value'], 0, 1_000_000)
  const scoring = value === undefined ? {} : { originalScore: value, minScoreRate: value >= 100 ? 0.1 : 1 }

  const flags = readStrings(src, ['flags'], 127)
  if (type === 'DynamicContainer' && flags.length > 0) {
    src.warn(['flags'], 'ignored: a DynamicContainer challenge takes its flags from container.flagTemplate')
  }
  const hints = readStrings(src, ['hints'])

  const provide = src.string(['provide'], { nonEmpty: true })
  const attachment = readHandout(src, ctx.dir, provide ? [{ path: ['provide'], value: provide.trim() }] : [])

  const isEnabled = src.boolean(['visible'])
  const disableBloodBonus = src.boolean(['disableBloodBonus'])
  const submissionLimit = src.integer(['submissionLimit'], 0, 10_000)
  const deadline = src.integer(['deadlineUtc'], 0, 8.64e12)

  const container = type ? readContainer(src, type) : null
  const flagTemplate =
    type === 'DynamicContainer' ? (src.string(['container', 'flagTemplate'], { max: 120 }) ?? null) : null
  if (type && type !== 'DynamicContainer' && src.has(['container', 'flagTemplate'])) {
    src.warn(
      ['container', 'flagTemplate'],
      `ignored: only DynamicContainer challenges use it, this one is ${type}`,
    )
  }

  if (src.hasErrors || !title || !type) return null
  return {
    dialect: 'gzcli',
    title,
    category,
    type,
    content,
    hints,
    flags: type === 'DynamicContainer' ? [] : flags,
    flagTemplate: flagTemplate?.trim() ? flagTemplate : null,
    ...(isEnabled !== undefined ? { isEnabled } : {}),
    ...scoring,
    ...(submissionLimit !== undefined ? { submissionLimit } : {}),
    ...(disableBloodBonus !== undefined ? { disableBloodBonus } : {}),
    // gzcli counts seconds and 0 means no deadline.
    ...(deadline !== undefined ? { closeAt: deadline === 0 ? null : deadline * 1000 } : {}),
    attachment,
    container,
  }
}

function readStrings(src: Source, path: Path, max?: number): string[] {
  const out: string[] = []
  ;(src.list(path) ?? []).forEach((item, i) => {
    if (typeof item !== 'string' && typeof item !== 'number') {
      src.error([...path, i], `must be text, not ${describe(item)}`)
      return
    }
    const s = String(item)
    if (max !== undefined && s.length > max)
      src.error([...path, i], `is ${s.length} characters long; at most ${max}`)
    else out.push(s)
  })
  return out
}

function readContainer(src: Source, type: ChallengeSpec['type']): ContainerSpec | null {
  const has = src.has(['container'])
  if (!isContainerType(type)) {
    if (has) src.warn(['container'], `ignored: ${type} challenges run no container`)
    return null
  }
  if (!has || !src.isMapping(['container'])) {
    src.error(['container'], `is required for a ${type} challenge (containerImage, exposePort)`)
    return null
  }
  for (const k of src.keys(['container'])) {
    if (!CONTAINER_KNOWN.has(k)) {
      src.warn(
        ['container', k],
        k === 'networkMode' ? 'ignored: Pennant has no network modes' : 'ignored: not a container field',
      )
    }
  }
  const image = src.string(['container', 'containerImage'], { required: true, nonEmpty: true, max: 512 })
  if (image && hasPlaceholder(image)) {
    src.error(
      ['container', 'containerImage'],
      `"${image}" holds a gzcli placeholder; pennant needs the real image name`,
    )
  }
  const port = readPort(src)
  const memoryLimit = src.integer(['container', 'memoryLimit'], 32, 1_048_576)
  const cpuCount = src.integer(['container', 'cpuCount'], 1, 1024)
  const storageLimit = src.integer(['container', 'storageLimit'], 128, 1_048_576)
  const enableTrafficCapture = src.boolean(['container', 'enableTrafficCapture'])
  if (!image || port === undefined) return null
  return {
    image: image.trim(),
    exposePort: port,
    ...(memoryLimit !== undefined ? { memoryLimit } : {}),
    ...(cpuCount !== undefined ? { cpuCount } : {}),
    ...(storageLimit !== undefined ? { storageLimit } : {}),
    ...(enableTrafficCapture !== undefined ? { enableTrafficCapture } : {}),
  }
}

/** gzcli reads `exposePort`; GZCTF's API calls it `containerExposePort`. Either, or both if equal. */
function readPort(src: Source): number | undefined {
  const a = src.integer(['container', 'exposePort'], 1, 65_535)
  const b = src.integer(['container', 'containerExposePort'], 1, 65_535)
  if (a !== undefined && b !== undefined && a !== b) {
    src.error(['container', 'containerExposePort'], `disagrees with exposePort (${b} vs ${a}); keep one`)
    return undefined
  }
  const port = a ?? b
  if (
    port === undefined &&
    !src.has(['container', 'exposePort']) &&
    !src.has(['container', 'containerExposePort'])
  ) {
    src.error(['container', 'exposePort'], 'is required for a container challenge')
  }
  return port
}
