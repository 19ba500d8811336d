import type { MantineColor } from '@mantine/core'
import {
  type Icon,
  IconArrowBackUpDouble,
  IconBomb,
  IconBrain,
  IconCode,
  IconCpu,
  IconCurrencyEthereum,
  IconDeviceMobile,
  IconFingerprint,
  IconKey,
  IconPuzzle,
  IconTarget,
  IconWorldSearch,
  IconWorldWww,
} from '@tabler/icons-react'
import type { ChallengeCategory } from '@/api/types'

export interface CategoryMeta {
  icon: Icon
  /** A Mantine colour, or `contrast`: the text colour, opposite of the scheme (the seed's Hardware). */
  color: MantineColor | 'contrast'
}

/**
 * Icon and colour of each challenge category. The name always goes with them (label or
 * accessible name), so the colour never carries meaning alone.
 */
export const CATEGORY_META: Record<ChallengeCategory, CategoryMeta> = {
  Misc: { icon: IconPuzzle, color: 'teal' },
  Crypto: { icon: IconKey, color: 'indigo' },
  Pwn: { icon: IconBomb, color: 'red' },
  Web: { icon: IconWorldWww, color: 'blue' },
  Reverse: { icon: IconArrowBackUpDouble, color: 'orange' },
  Blockchain: { icon: IconCurrencyEthereum, color: 'lime' },
  Forensics: { icon: IconFingerprint, color: 'grape' },
  Hardware: { icon: IconCpu, color: 'contrast' },
  Mobile: { icon: IconDeviceMobile, color: 'violet' },
  PPC: { icon: IconCode, color: 'cyan' },
  AI: { icon: IconBrain, color: 'pink' },
  Pentest: { icon: IconTarget, color: 'yellow' },
  OSINT: { icon: IconWorldSearch, color: 'green' },
}

/** A CSS colour for a category, right in both schemes. */
export function categoryColor(category: ChallengeCategory): string {
  const { color } = CATEGORY_META[category] ?? CATEGORY_META.Misc
  return color === 'contrast' ? 'var(--mantine-color-text)' : `var(--mantine-color-${color}-light-color)`
}

/** The translation key of a category's name. */
export const categoryLabelKey = (category: ChallengeCategory) => `challenge.category.${category}`
