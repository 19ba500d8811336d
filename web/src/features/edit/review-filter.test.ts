import { describe, expect, it } from 'vitest'
import { filterParticipations, NO_DIVISION, pageOf } from './review-filter'

const list = [
  { id: 1, status: 'Accepted' as const, division: 'Open', team: { name: 'Red Herrings' } },
  { id: 2, status: 'Pending' as const, division: null, team: { name: 'blue teapots' } },
  { id: 3, status: 'Rejected' as const, division: 'Students', team: { name: 'Redshift' } },
]
const ids = (filter: Partial<Parameters<typeof filterParticipations>[1]>) =>
  filterParticipations(list, { search: '', division: '', status: '', ...filter }).map((p) => p.id)

describe(filterParticipations, () => {
  it('lists pending teams first when nothing filters', () => {
    expect(ids({})).toEqual([2, 1, 3])
  })

  it('matches the team name in any case, the division and the status', () => {
    expect(ids({ search: 'RED' })).toEqual([1, 3])
    expect(ids({ division: 'Open' })).toEqual([1])
    expect(ids({ division: NO_DIVISION })).toEqual([2])
    expect(ids({ status: 'Rejected' })).toEqual([3])
    expect(ids({ search: 'red', status: 'Pending' })).toEqual([])
  })
})

describe(pageOf, () => {
  it('cuts pages of the given size', () => {
    expect(pageOf([1, 2, 3, 4, 5], 2, 2)).toEqual([3, 4])
    expect(pageOf([1, 2, 3], 3, 2)).toEqual([])
  })
})
