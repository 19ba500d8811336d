import { describe, expect, it } from 'vitest'
import { fromLocalInput, toLocalInput } from './datetime'

describe(toLocalInput, () => {
  it('writes local wall-clock time to the minute and reads back the same instant', () => {
    const ms = new Date(2025, 2, 9, 7, 5).getTime()
    expect(toLocalInput(ms)).toBe('2025-03-09T07:05')
    expect(fromLocalInput(toLocalInput(ms))).toBe(ms)
  })

  it('gives an empty string for an invalid instant', () => {
    expect(toLocalInput(Number.NaN)).toBe('')
  })
})

describe(fromLocalInput, () => {
  it('accepts seconds and rejects anything that is not a datetime-local value', () => {
    expect(fromLocalInput('2025-03-09T07:05:30')).toBe(new Date(2025, 2, 9, 7, 5, 30).getTime())
    expect(fromLocalInput('')).toBeNull()
    expect(fromLocalInput('2025-03-09')).toBeNull()
    expect(fromLocalInput('yesterday')).toBeNull()
    expect(fromLocalInput('2025-13-45T99:99')).toBeNull()
  })
})
