import type { NoticeType } from '@/api/types'

export interface Notice {
  id: number
  time: number
  type: NoticeType
  values: string[]
}

/** The notice panel's filter: everything, organisers' notices, bloods, challenge news. */
export type NoticeFilter = 'all' | 'game' | 'bloods' | 'challenges'

const GROUP: Record<NoticeType, Exclude<NoticeFilter, 'all'>> = {
  Normal: 'game',
  FirstBlood: 'bloods',
  SecondBlood: 'bloods',
  ThirdBlood: 'bloods',
  NewHint: 'challenges',
  NewChallenge: 'challenges',
}

/** Organisers' notices first, then the rest; newest first within each. */
export function sortNotices(notices: readonly Notice[]): Notice[] {
  return [...notices].sort((a, b) => {
    const normal = Number(b.type === 'Normal') - Number(a.type === 'Normal')
    return normal || b.time - a.time
  })
}

export function filterNotices(notices: readonly Notice[], filter: NoticeFilter): Notice[] {
  return filter === 'all' ? [...notices] : notices.filter((n) => GROUP[n.type] === filter)
}
