import type { ChallengeCategory, ChallengeType } from '@/api/types'

/**
 * Badge colour of each category in the organiser screens. The name is always printed beside
 * it, so colour never carries meaning alone.
 */
export const CATEGORY_COLOR: Record<ChallengeCategory, string> = {
  Misc: 'teal',
  Crypto: 'indigo',
  Pwn: 'red',
  Web: 'blue',
  Reverse: 'orange',
  Blockchain: 'lime',
  Forensics: 'grape',
  Hardware: 'gray',
  Mobile: 'violet',
  PPC: 'cyan',
  AI: 'pink',
  Pentest: 'yellow',
  OSINT: 'green',
}

export const TYPE_COLOR: Record<ChallengeType, string> = {
  StaticAttachment: 'blue',
  StaticContainer: 'cyan',
  DynamicAttachment: 'violet',
  DynamicContainer: 'grape',
}

/** Whether a game is between its start and its end at `now`. */
export const isRunning = (game: { start: number; end: number }, now = Date.now()) =>
  now >= game.start && now <= game.end
