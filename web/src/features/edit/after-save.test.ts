import { describe, expect, it } from 'vitest'
import { afterSave } from './after-save'

describe('afterSave', () => {
  it('takes what the server stored when the form was left alone during the save', () => {
    const sent = { title: ' Spring ' }
    expect(afterSave(sent, sent, { title: 'Spring' })).toEqual({ title: 'Spring' })
  })

  it('keeps edits made while the save was under way', () => {
    const sent = { title: 'Spring' }
    const typedSince = { title: 'Spring cup' }
    expect(afterSave(typedSince, sent, { title: 'Spring' })).toBe(typedSince)
  })
})
