import {
  IconFlagFilled,
  IconHexagonNumber1Filled,
  IconHexagonNumber2Filled,
  IconHexagonNumber3Filled,
} from '@tabler/icons-react'
import type { SubmissionType } from '@/api/types'

/** Gold, silver and bronze; the numbered icon tells them apart without colour. */
const BLOODS = {
  FirstBlood: { icon: IconHexagonNumber1Filled, color: '#e0a526' },
  SecondBlood: { icon: IconHexagonNumber2Filled, color: '#9aa4b1' },
  ThirdBlood: { icon: IconHexagonNumber3Filled, color: '#c0793a' },
} as const

export const BLOOD_TYPES = ['FirstBlood', 'SecondBlood', 'ThirdBlood'] as const
export type BloodType = (typeof BLOOD_TYPES)[number]

/** The mark of a solve: a numbered hexagon for the three bloods, a flag for the rest. Decorative. */
export function SolveIcon({ type, size = 18 }: { type: SubmissionType; size?: number }) {
  if (type in BLOODS) {
    const { icon: BloodIcon, color } = BLOODS[type as BloodType]
    return <BloodIcon size={size} color={color} aria-hidden style={{ flexShrink: 0 }} />
  }
  return (
    <IconFlagFilled
      size={size}
      color="var(--mantine-primary-color-filled)"
      aria-hidden
      style={{ flexShrink: 0 }}
    />
  )
}

/** The translation key naming a solve type ("first blood", "solved"). */
export const solveTypeKey = (type: SubmissionType) => `game.solve.${type}`
