import { Enum } from './schema.ts'

/** The contract's enums (api-contract §3): names on the wire, these integers in the database. */
export const ChallengeCategoryValues = {
  Misc: 0,
  Crypto: 1,
  Pwn: 2,
  Web: 3,
  Reverse: 4,
  Blockchain: 5,
  Forensics: 6,
  Hardware: 7,
  Mobile: 8,
  PPC: 9,
  AI: 10,
  Pentest: 11,
  OSINT: 12,
} as const
export const ChallengeTypeValues = {
  StaticAttachment: 0,
  StaticContainer: 1,
  DynamicAttachment: 2,
  DynamicContainer: 3,
} as const
export const FileTypeValues = { None: 0, Local: 1, Remote: 2 } as const
export const NoticeTypeValues = {
  Normal: 0,
  FirstBlood: 1,
  SecondBlood: 2,
  ThirdBlood: 3,
  NewHint: 4,
  NewChallenge: 5,
} as const
export const TaskStatusValues = {
  Success: 0,
  Failed: 1,
  Duplicate: 2,
  Denied: 3,
  NotFound: 4,
  Exit: 5,
  Pending: -1,
} as const

export const ChallengeCategory = Enum('ChallengeCategory', ChallengeCategoryValues)
export const ChallengeType = Enum('ChallengeType', ChallengeTypeValues)
export const FileType = Enum('FileType', FileTypeValues)
export const NoticeType = Enum('NoticeType', NoticeTypeValues)
export const TaskStatus = Enum('TaskStatus', TaskStatusValues)

export type ChallengeCategoryName = keyof typeof ChallengeCategoryValues
export type ChallengeTypeName = keyof typeof ChallengeTypeValues
export type FileTypeName = keyof typeof FileTypeValues
export type NoticeTypeName = keyof typeof NoticeTypeValues

/** Name of an enum value read back from the database. */
export function nameOf<M extends Record<string, number>>(members: M, value: number): keyof M & string {
  const found = Object.keys(members).find((k) => members[k] === value)
  if (found === undefined) throw new Error(`unknown enum value ${value}`)
  return found as keyof M & string
}

/** Challenge types: bit 0 marks a container, bit 1 a dynamic flag. */
export const isContainerType = (type: number) => (type & 1) === 1
export const isDynamicType = (type: number) => (type & 2) === 2
