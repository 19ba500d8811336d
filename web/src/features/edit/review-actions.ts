import { canTransition } from '@engine/participation.ts'
import type { ParticipationStatus } from '@/api/types'

export interface ReviewAction {
  /** The status the action moves the participation to. */
  to: ParticipationStatus
  /** Translation key of the button. */
  label: string
  color: string
}

// Every target a reviewer may pick, in the order the buttons appear.
const TARGETS: ParticipationStatus[] = ['Accepted', 'Rejected', 'Suspended']

/**
 * The buttons a participation in `status` gets, following the engine's allowed transitions
 * (Pending → Accepted | Rejected, Accepted → Suspended, Suspended → Accepted).
 */
export function reviewActions(status: ParticipationStatus): ReviewAction[] {
  return TARGETS.filter((to) => canTransition(status, to)).map((to) => ({
    to,
    label:
      to === 'Accepted'
        ? status === 'Suspended'
          ? 'admin.review.action.reinstate'
          : 'admin.review.action.accept'
        : to === 'Rejected'
          ? 'admin.review.action.reject'
          : 'admin.review.action.suspend',
    color: to === 'Accepted' ? 'teal' : to === 'Rejected' ? 'red' : 'orange',
  }))
}

/** Badge colour of each status. */
export const STATUS_COLOR: Record<ParticipationStatus, string> = {
  Pending: 'yellow',
  Accepted: 'teal',
  Rejected: 'red',
  Suspended: 'orange',
  Unsubmitted: 'gray',
}
