import { describe, expect, it } from 'vitest'
import { reviewActions } from './review-actions'

const targets = (status: Parameters<typeof reviewActions>[0]) => reviewActions(status).map((a) => a.to)

describe(reviewActions, () => {
  it('offers accept and reject for a pending team', () => {
    expect(targets('Pending')).toEqual(['Accepted', 'Rejected'])
    expect(reviewActions('Pending')[0]!.label).toBe('admin.review.action.accept')
  })

  it('offers suspend for an accepted team and reinstate for a suspended one', () => {
    expect(targets('Accepted')).toEqual(['Suspended'])
    expect(targets('Suspended')).toEqual(['Accepted'])
    expect(reviewActions('Suspended')[0]!.label).toBe('admin.review.action.reinstate')
  })

  it('offers nothing for a rejected or unsubmitted team', () => {
    expect(targets('Rejected')).toEqual([])
    expect(targets('Unsubmitted')).toEqual([])
  })
})
