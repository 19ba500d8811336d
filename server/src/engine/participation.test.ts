import { describe, expect, it } from 'vitest'
import { canTransition, type ParticipationStatusName } from './participation.ts'

describe(canTransition, () => {
  const all: ParticipationStatusName[] = ['Pending', 'Accepted', 'Rejected', 'Suspended', 'Unsubmitted']
  const allowed = new Set([
    'Pending>Accepted',
    'Pending>Rejected',
    'Accepted>Suspended',
    'Suspended>Accepted',
  ])
  for (const from of all) {
    for (const to of all) {
      const ok = allowed.has(`${from}>${to}`)
      it(`${ok ? 'allows' : 'refuses'} ${from} → ${to}`, () => expect(canTransition(from, to)).toBe(ok))
    }
  }
})
