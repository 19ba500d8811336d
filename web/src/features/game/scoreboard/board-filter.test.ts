import { describe, expect, it } from 'vitest'
import { columnGroups, divisionsOf, filterBoard, pageOf, pageOfIndex } from './board-filter'

const rows = [
  { name: 'Alpha Wolves', division: 'Students' },
  { name: 'beta', division: 'Open' },
  { name: 'Gamma', division: null },
  { name: 'alphabet soup', division: 'Open' },
]

describe(filterBoard, () => {
  it('keeps the rows of the chosen division', () => {
    expect(filterBoard(rows, { division: 'Open', search: '' }).map((r) => r.name)).toEqual([
      'beta',
      'alphabet soup',
    ])
    expect(filterBoard(rows, { division: 'all', search: '' })).toHaveLength(4)
  })

  it('searches names without regard to case or surrounding spaces', () => {
    expect(filterBoard(rows, { division: 'all', search: '  ALPHA ' }).map((r) => r.name)).toEqual([
      'Alpha Wolves',
      'alphabet soup',
    ])
  })

  it('combines both', () => {
    expect(filterBoard(rows, { division: 'Open', search: 'alpha' }).map((r) => r.name)).toEqual([
      'alphabet soup',
    ])
  })
})

describe(pageOf, () => {
  const items = Array.from({ length: 65 }, (_, i) => i)

  it('cuts pages of the given size and counts them', () => {
    const sut = pageOf(items, 3, 30)
    expect(sut.pages).toBe(3)
    expect(sut.rows).toEqual([60, 61, 62, 63, 64])
  })

  it('clamps a page out of range (after the filter shrank the list)', () => {
    expect(pageOf(items, 9, 30).rows[0]).toBe(60)
    expect(pageOf([], 2, 30)).toEqual({ rows: [], pages: 1 })
  })

  it('finds the page of a row', () => {
    expect(pageOfIndex(0, 30)).toBe(1)
    expect(pageOfIndex(29, 30)).toBe(1)
    expect(pageOfIndex(30, 30)).toBe(2)
  })
})

describe(divisionsOf, () => {
  it('lists the timeline divisions first, then any others on the rows', () => {
    expect(divisionsOf(['all', 'Students'], rows)).toEqual(['Students', 'Open'])
    expect(divisionsOf(['all'], [{ name: 'x', division: null }])).toEqual([])
  })
})

describe(columnGroups, () => {
  it('keeps the category order and drops empty categories', () => {
    expect(columnGroups({ Web: [1, 2], Pwn: [], Crypto: [3] })).toEqual([
      { category: 'Web', challenges: [1, 2] },
      { category: 'Crypto', challenges: [3] },
    ])
  })
})
