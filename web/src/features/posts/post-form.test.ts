import { describe, expect, it } from 'vitest'
import { draftOf, emptyDraft, isDirty, isPostId, pageOf, titleProblem, toBody } from './post-form'

describe(isPostId, () => {
  it.each([
    ['0a1b2c3d', true],
    ['0A1B2C3D', true],
    ['new', false],
    ['0a1b2c3', false],
    ['0a1b2c3d4', false],
    ['0a1b2c3g', false],
    [undefined, false],
  ])('judges %j as %s', (id, ok) => {
    expect(isPostId(id)).toBe(ok)
  })
})

describe(isDirty, () => {
  const saved = draftOf({
    id: '0a1b2c3d',
    title: 'Hello',
    summary: 's',
    content: 'c',
    tags: ['a', 'b'],
    isPinned: false,
    authorAvatar: null,
    authorName: 'Admin',
    time: 0,
  })

  it('is clean when nothing changed', () => {
    expect(isDirty({ ...saved, tags: [...saved.tags] }, saved)).toBe(false)
  })

  it.each([
    [{ title: 'Hello!' }],
    [{ summary: '' }],
    [{ content: 'changed' }],
    [{ isPinned: true }],
    [{ tags: ['b', 'a'] }],
    [{ tags: ['a'] }],
  ])('notices %j', (change) => {
    expect(isDirty({ ...saved, ...change }, saved)).toBe(true)
  })
})

describe(titleProblem, () => {
  it('requires a title of at most 50 characters', () => {
    expect(titleProblem('  ')).toBe('title_required')
    expect(titleProblem('x'.repeat(50))).toBeNull()
    expect(titleProblem('x'.repeat(51))).toBe('title_long')
  })
})

describe(toBody, () => {
  it('trims the title and drops blank or repeated tags', () => {
    expect(toBody({ ...emptyDraft(), title: ' News ', tags: ['a', ' a ', '', 'b'] })).toEqual({
      title: 'News',
      summary: '',
      content: '',
      tags: ['a', 'b'],
      isPinned: false,
    })
  })
})

describe(pageOf, () => {
  const items = Array.from({ length: 23 }, (_, i) => i)

  it('cuts pages of the given size', () => {
    expect(pageOf(items, 1, 10)).toEqual({ items: items.slice(0, 10), page: 1, pages: 3 })
    expect(pageOf(items, 3, 10).items).toEqual([20, 21, 22])
  })

  it('clamps pages out of range or not numbers', () => {
    expect(pageOf(items, 9, 10).page).toBe(3)
    expect(pageOf(items, 0, 10).page).toBe(1)
    expect(pageOf(items, Number.NaN, 10).page).toBe(1)
  })

  it('has one empty page for no items', () => {
    expect(pageOf([], 1, 10)).toEqual({ items: [], page: 1, pages: 1 })
  })
})
