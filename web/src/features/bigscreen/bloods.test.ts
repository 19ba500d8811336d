import { describe, expect, it } from 'vitest'
import { freshKeys, latestBloods } from './bloods'

const blood = (name: string, time: number | null) => ({ id: 1, name, avatar: null, submitTimeUtc: time })
const challenge = (id: number, title: string, bloods: ReturnType<typeof blood>[]) => ({
  id,
  title,
  category: 'Web' as const,
  score: 100,
  solved: bloods.length,
  bloods,
  disableBloodBonus: false,
})

describe(latestBloods, () => {
  const board = {
    Web: [challenge(1, 'Login', [blood('A', 100), blood('B', 300)])],
    Pwn: [challenge(2, 'Heap', [blood('C', 200), blood('D', null)])],
  }

  it('lists bloods newest first with their place, skipping ones without a time', () => {
    expect(latestBloods(board)).toEqual([
      { key: '1:2', challenge: 'Login', team: 'B', place: 2, time: 300 },
      { key: '2:1', challenge: 'Heap', team: 'C', place: 1, time: 200 },
      { key: '1:1', challenge: 'Login', team: 'A', place: 1, time: 100 },
    ])
  })

  it('keeps only the newest ones', () => {
    expect(latestBloods(board, 1).map((b) => b.key)).toEqual(['1:2'])
  })
})

describe(freshKeys, () => {
  it('says nothing is new on the first read, then names the arrivals', () => {
    const now = latestBloods({ Web: [challenge(1, 'x', [blood('A', 1), blood('B', 2)])] })
    expect(freshKeys(null, now)).toEqual([])
    expect(freshKeys(new Set(['1:1']), now)).toEqual(['1:2'])
  })
})
