import { describe, expect, it } from 'vitest'
import {
  assetUrl,
  levelColor,
  logKeys,
  mayHaveMore,
  pageCount,
  searchHint,
  shortHash,
  skipOf,
  statusColor,
} from './admin-lists'

describe('paging', () => {
  it('turns a 1-based page into an offset', () => {
    expect(skipOf(1, 30)).toBe(0)
    expect(skipOf(3, 30)).toBe(60)
    expect(skipOf(0, 30)).toBe(0)
  })
  it('counts pages, never fewer than one', () => {
    expect(pageCount(0, 30)).toBe(1)
    expect(pageCount(30, 30)).toBe(1)
    expect(pageCount(31, 30)).toBe(2)
    expect(pageCount(-5, 30)).toBe(1)
  })
  it('offers a next page only after a full one', () => {
    expect(mayHaveMore(50, 50)).toBe(true)
    expect(mayHaveMore(49, 50)).toBe(false)
    expect(mayHaveMore(0, 50)).toBe(false)
  })
})

describe('searchHint', () => {
  it('is null for blank text, so the list pages again', () => {
    expect(searchHint('')).toBeNull()
    expect(searchHint('   ')).toBeNull()
  })
  it('trims and caps the hint at the server limit', () => {
    expect(searchHint('  bob ')).toBe('bob')
    expect(searchHint('x'.repeat(200))).toHaveLength(128)
  })
})

describe('colours', () => {
  it('colours task statuses: success green, failure and denial red, others grey', () => {
    expect(statusColor('Success')).toBe('teal')
    expect(statusColor('Failed')).toBe('red')
    expect(statusColor('Denied')).toBe('red')
    expect(statusColor('Pending')).toBe('gray')
    expect(statusColor('Duplicate')).toBe('gray')
    expect(statusColor(null)).toBe('gray')
  })
  it('colours log levels by severity', () => {
    expect(levelColor('Information')).toBe('blue')
    expect(levelColor('Warning')).toBe('yellow')
    expect(levelColor('Error')).toBe('red')
    expect(levelColor('Fatal')).toBe('grape')
    expect(levelColor(undefined)).toBe('gray')
  })
})

describe('files', () => {
  it('shortens hashes and keeps short ones', () => {
    expect(shortHash('a'.repeat(64))).toBe(`${'a'.repeat(12)}…`)
    expect(shortHash('abc')).toBe('abc')
  })
  it('builds encoded asset links', () => {
    expect(assetUrl('ab12', 'my file #1.txt')).toBe('/assets/ab12/my%20file%20%231.txt')
    expect(assetUrl('ab12', '')).toBe('/assets/ab12/file')
  })
})

describe('logKeys', () => {
  it('keys records by content and tells identical ones apart', () => {
    const a = { time: 1, name: 'x', ip: '1.2.3.4', msg: 'hi' }
    const keys = logKeys([a, { ...a, msg: 'ho' }, a])
    expect(new Set(keys).size).toBe(3)
    expect(keys[0]).toBe(logKeys([a])[0])
  })
})
