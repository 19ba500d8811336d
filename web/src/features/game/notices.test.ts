import { describe, expect, it } from 'vitest'
import { filterNotices, type Notice, sortNotices } from './notices'

const notice = (id: number, type: Notice['type'], time: number): Notice => ({ id, type, time, values: [] })

describe(sortNotices, () => {
  it('puts organisers’ notices first, then the newest', () => {
    const sut = sortNotices([
      notice(1, 'FirstBlood', 10),
      notice(2, 'Normal', 5),
      notice(3, 'NewHint', 30),
      notice(4, 'Normal', 20),
    ])
    expect(sut.map((n) => n.id)).toEqual([4, 2, 3, 1])
  })
})

describe(filterNotices, () => {
  const all = [
    notice(1, 'Normal', 1),
    notice(2, 'FirstBlood', 2),
    notice(3, 'ThirdBlood', 3),
    notice(4, 'NewChallenge', 4),
    notice(5, 'NewHint', 5),
  ]

  it('keeps the notices of the chosen group', () => {
    expect(filterNotices(all, 'all')).toHaveLength(5)
    expect(filterNotices(all, 'game').map((n) => n.id)).toEqual([1])
    expect(filterNotices(all, 'bloods').map((n) => n.id)).toEqual([2, 3])
    expect(filterNotices(all, 'challenges').map((n) => n.id)).toEqual([4, 5])
  })
})
