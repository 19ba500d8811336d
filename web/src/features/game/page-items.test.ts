import { describe, expect, it } from 'vitest'
import { pageItems } from './page-items'

describe(pageItems, () => {
  it('lists every page when there are few', () => {
    expect(pageItems(1, 1)).toEqual([1])
    expect(pageItems(2, 5)).toEqual([1, 2, 3, 4, 5])
  })

  it('keeps the ends and the neighbours of the current page, with gaps between', () => {
    expect(pageItems(10, 20)).toEqual([1, 'gap', 9, 10, 11, 'gap', 20])
    expect(pageItems(1, 20)).toEqual([1, 2, 'gap', 20])
    expect(pageItems(20, 20)).toEqual([1, 'gap', 19, 20])
  })

  it('shows a lone left-out page instead of a gap', () => {
    expect(pageItems(4, 8)).toEqual([1, 2, 3, 4, 5, 'gap', 8])
  })
})
