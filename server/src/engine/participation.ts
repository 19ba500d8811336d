/** Participation statuses (api-contract §3) and the review transitions organisers may make. */
export const ParticipationStatusValues = {
  Pending: 0,
  Accepted: 1,
  Rejected: 2,
  Suspended: 3,
  Unsubmitted: 4,
} as const
export type ParticipationStatusName = keyof typeof ParticipationStatusValues

const allowed: Record<ParticipationStatusName, ParticipationStatusName[]> = {
  Pending: ['Accepted', 'Rejected'],
  Accepted: ['Suspended'],
  Suspended: ['Accepted'],
  Rejected: [],
  Unsubmitted: [],
}

/** Pending → Accepted | Rejected; Accepted → Suspended; Suspended → Accepted (seed §4). */
export const canTransition = (from: ParticipationStatusName, to: ParticipationStatusName) =>
  allowed[from].includes(to)

/** Who may play: only accepted teams appear on the board and open challenges. */
export const isPlaying = (status: ParticipationStatusName) => status === 'Accepted'
