import { type GamePhase, isClosed } from '@engine/game-phase.ts'
import type { ParticipationStatus } from '@/api/types'

/** What the caller knows about themselves and the game, as the game home needs it. */
export interface ActionInput {
  phase: GamePhase
  practiceMode: boolean
  /** The caller's participation (`Unsubmitted` when not joined or anonymous). */
  status: ParticipationStatus
  signedIn: boolean
  /** How many teams the caller belongs to (0 while unknown or anonymous). */
  teamCount: number
}

/** Why the Join button is disabled. */
export type JoinBlock = 'ended' | 'login' | 'no_team' | 'joined'

/** An alert under the banner. */
export type GameAlert = 'pending' | 'rejected' | 'suspended' | 'no_team' | 'not_started' | null

export interface GameActions {
  /** Null when joining is possible; otherwise the reason shown beside the disabled button. */
  joinBlock: JoinBlock | null
  leave: boolean
  challenges: boolean
  scoreboard: boolean
  alert: GameAlert
}

/**
 * The game home's buttons and alert for a participation status (web-client §2.2). Rejected teams
 * may join again (the server moves them back to Pending); Pending and Rejected may leave.
 */
export function gameActions({ phase, practiceMode, status, signedIn, teamCount }: ActionInput): GameActions {
  const joined = status === 'Pending' || status === 'Accepted' || status === 'Suspended'
  let joinBlock: JoinBlock | null = null
  if (joined) joinBlock = 'joined'
  else if (isClosed(phase, practiceMode)) joinBlock = 'ended'
  else if (!signedIn) joinBlock = 'login'
  else if (teamCount === 0) joinBlock = 'no_team'

  let alert: GameAlert = null
  if (status === 'Pending') alert = 'pending'
  else if (status === 'Rejected') alert = 'rejected'
  else if (status === 'Suspended') alert = 'suspended'
  else if (status === 'Accepted' && phase === 'upcoming') alert = 'not_started'
  else if (signedIn && teamCount === 0 && !isClosed(phase, practiceMode)) alert = 'no_team'

  return {
    joinBlock,
    leave: status === 'Pending' || status === 'Rejected',
    challenges: status === 'Accepted' && phase !== 'upcoming' && !isClosed(phase, practiceMode),
    scoreboard: phase !== 'upcoming',
    alert,
  }
}

/** A tab of the game area. */
export type GameTab = 'challenges' | 'scoreboard' | 'monitor'

/** Why the game area sends someone back to the game home. */
export type AreaDenial = 'not_started' | 'ended' | 'not_joined' | 'pending' | 'rejected' | 'suspended'

export interface AreaInput {
  phase: GamePhase
  practiceMode: boolean
  status: ParticipationStatus
  /** The caller is a Monitor or an Admin (`hasRole(role, 'Monitor')`). */
  monitor: boolean
}

/**
 * The game area's guard (web-client §2.5): nothing before the start; the scoreboard for anyone
 * after it; monitoring for Monitor+ (its own role guard says "not found" to others); the challenges
 * for Accepted teams while the game runs, and after the end only in practice mode or for Monitor+.
 */
export function areaDenial(
  tab: GameTab,
  { phase, practiceMode, status, monitor }: AreaInput,
): AreaDenial | null {
  if (phase === 'upcoming') return 'not_started'
  if (tab !== 'challenges') return null
  if (phase === 'ended' && !practiceMode && !monitor) return 'ended'
  switch (status) {
    case 'Accepted':
      return null
    case 'Pending':
      return 'pending'
    case 'Rejected':
      return 'rejected'
    case 'Suspended':
      return 'suspended'
    default:
      return 'not_joined'
  }
}

/** The tabs the game area shows. */
export function visibleTabs(input: AreaInput): GameTab[] {
  const tabs: GameTab[] = []
  if (input.status === 'Accepted' && !isClosed(input.phase, input.practiceMode)) tabs.push('challenges')
  tabs.push('scoreboard')
  if (input.monitor) tabs.push('monitor')
  return tabs
}
