import type { ParticipationStatus } from '@/api/types'

export interface ReviewFilter {
  /** Part of the team name, any case. */
  search: string
  /** A division, '' for any, or NO_DIVISION for teams without one. */
  division: string
  /** A status, or '' for any. */
  status: ParticipationStatus | ''
}

export const NO_DIVISION = '\u0000none'

interface ParticipationLike {
  status: ParticipationStatus
  division: string | null
  team: { name: string }
}

/** The participations matching the filter, pending ones first (they wait for a decision). */
export function filterParticipations<P extends ParticipationLike>(list: P[], filter: ReviewFilter): P[] {
  const needle = filter.search.trim().toLowerCase()
  return list
    .filter((p) => !needle || p.team.name.toLowerCase().includes(needle))
    .filter((p) =>
      filter.division === NO_DIVISION ? !p.division : !filter.division || p.division === filter.division,
    )
    .filter((p) => !filter.status || p.status === filter.status)
    .sort((a, b) => Number(b.status === 'Pending') - Number(a.status === 'Pending'))
}

/** One page of a list (pages count from 1). */
export const pageOf = <T>(list: T[], page: number, size: number) => list.slice((page - 1) * size, page * size)
