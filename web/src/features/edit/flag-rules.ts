import { generateFlag, isTemplateStrong, type Random } from '@engine/flag-template.ts'
import type { ChallengeType } from '@/api/types'

/** The server's flag length limit (`FlagCreateModel.flag`). */
export const FLAG_MAX = 127
/** The server's template length limit (`ChallengeUpdateModel.flagTemplate`). */
export const TEMPLATE_MAX = 120
/**
 * Stands in for a team's [TEAM_HASH] in the examples. The real value is derived from the
 * game's salt and each team's token, so it is only known once a team has joined.
 */
export const SAMPLE_TEAM_HASH = '0a1b2c3d4e5f'

/** How flags reach a challenge: typed by the organiser, one file each, or made from a template. */
export type FlagMode = 'static' | 'dynamicAttachment' | 'template'

export function flagMode(type: ChallengeType): FlagMode {
  if (type === 'DynamicAttachment') return 'dynamicAttachment'
  if (type === 'DynamicContainer') return 'template'
  return 'static'
}

export const isContainerType = (type: ChallengeType) =>
  type === 'StaticContainer' || type === 'DynamicContainer'

/**
 * The flags of a pasted list: one per line, trimmed, blank lines and repeats dropped. Lines
 * longer than the server accepts are reported, not cut.
 */
export function parseFlagList(text: string): { flags: string[]; tooLong: string[] } {
  const seen = new Set<string>()
  const flags: string[] = []
  const tooLong: string[] = []
  for (const line of text.split(/\r?\n/)) {
    const flag = line.trim()
    if (!flag || seen.has(flag)) continue
    seen.add(flag)
    if (flag.length > FLAG_MAX) tooLong.push(flag)
    else flags.push(flag)
  }
  return { flags, tooLong }
}

const cryptoRandom: Random = (n) => {
  const buf = new Uint32Array(1)
  crypto.getRandomValues(buf)
  return buf[0]! % n
}

/**
 * A few flags the template could produce for one sample team, from the engine's own generator
 * (so leet, [GUID] and [CLEET] behave here as they will for players).
 */
export function templateExamples(
  template: string,
  count = 3,
  random: Random = cryptoRandom,
  guid: () => string = () => crypto.randomUUID(),
): string[] {
  return Array.from({ length: count }, () =>
    generateFlag(template.trim() || null, { random, guid, teamHash: SAMPLE_TEAM_HASH }),
  )
}

/** Whether the server will take the template (a blank one means "random GUID flags"). */
export const templateAccepted = (template: string) => !template.trim() || isTemplateStrong(template.trim())
