import { fromLocalInput, toLocalInput } from '@/utils/datetime'
import { type BonusPercents, bonusToPercents, percentsToBonus } from './blood-bonus-form'

/** The game info form as typed: dates as `datetime-local` text, the blood bonus as percentages. */
export interface GameForm {
  title: string
  hidden: boolean
  summary: string
  content: string
  acceptWithoutReview: boolean
  writeupRequired: boolean
  writeupDeadline: string
  writeupNote: string
  inviteCode: string
  divisions: string[]
  teamMemberCountLimit: number | string
  containerCountLimit: number | string
  practiceMode: boolean
  start: string
  end: string
  bloodBonus: BonusPercents
  /** Scoreboard freeze (Pennant addition): `datetime-local` text, empty for none. */
  freezeAt: string
  revealAt: string
}

/** The fields of `GameInfoModel` the form edits (the server ignores id, poster and publicKey). */
export interface GameModel {
  title: string
  hidden: boolean
  summary: string
  content: string
  acceptWithoutReview: boolean
  writeupRequired: boolean
  writeupDeadline: number
  writeupNote: string
  inviteCode: string | null
  divisions: string[] | null
  teamMemberCountLimit: number
  containerCountLimit: number
  practiceMode: boolean
  start: number
  end: number
  bloodBonus: number
  freezeAt?: number | null
  revealAt?: number | null
}

export const TITLE_MAX = 128
export const INVITE_CODE_MAX = 32
export const DIVISION_MAX = 31

export function toForm(game: GameModel): GameForm {
  return {
    title: game.title,
    hidden: game.hidden,
    summary: game.summary,
    content: game.content,
    acceptWithoutReview: game.acceptWithoutReview,
    writeupRequired: game.writeupRequired,
    writeupDeadline: toLocalInput(game.writeupDeadline),
    writeupNote: game.writeupNote,
    inviteCode: game.inviteCode ?? '',
    divisions: game.divisions ?? [],
    teamMemberCountLimit: game.teamMemberCountLimit,
    containerCountLimit: game.containerCountLimit,
    practiceMode: game.practiceMode,
    start: toLocalInput(game.start),
    end: toLocalInput(game.end),
    bloodBonus: bonusToPercents(game.bloodBonus),
    freezeAt: game.freezeAt == null ? '' : toLocalInput(game.freezeAt),
    revealAt: game.revealAt == null ? '' : toLocalInput(game.revealAt),
  }
}

export type GameFormErrors = Partial<Record<keyof GameForm, string>>

const isCount = (v: number | string) => typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 10_000

/** What is wrong with the form, as translation keys per field; empty when it can be sent. */
export function validateGameForm(form: GameForm): GameFormErrors {
  const errors: GameFormErrors = {}
  if (!form.title.trim()) errors.title = 'admin.game.error.title_required'
  else if (form.title.trim().length > TITLE_MAX) errors.title = 'admin.game.error.title_long'
  const start = fromLocalInput(form.start)
  const end = fromLocalInput(form.end)
  if (start === null) errors.start = 'admin.game.error.date'
  if (end === null) errors.end = 'admin.game.error.date'
  else if (start !== null && end <= start) errors.end = 'admin.game.error.end_before_start'
  if (form.writeupRequired) {
    const deadline = fromLocalInput(form.writeupDeadline)
    if (deadline === null) errors.writeupDeadline = 'admin.game.error.date'
    else if (start !== null && deadline < start)
      errors.writeupDeadline = 'admin.game.error.deadline_before_start'
  }
  if (form.inviteCode.trim().length > INVITE_CODE_MAX) errors.inviteCode = 'admin.game.error.invite_long'
  if (form.divisions.some((d) => d.trim().length > DIVISION_MAX))
    errors.divisions = 'admin.game.error.division_long'
  if (!isCount(form.teamMemberCountLimit)) errors.teamMemberCountLimit = 'admin.game.error.count'
  if (!isCount(form.containerCountLimit)) errors.containerCountLimit = 'admin.game.error.count'
  if (percentsToBonus(form.bloodBonus) === null) errors.bloodBonus = 'admin.game.error.bonus'
  const freezeAt = form.freezeAt ? fromLocalInput(form.freezeAt) : null
  if (form.freezeAt && freezeAt === null) errors.freezeAt = 'admin.game.error.date'
  else if (freezeAt !== null && start !== null && end !== null && (freezeAt < start || freezeAt >= end))
    errors.freezeAt = 'admin.game.freeze.error_outside'
  const revealAt = form.revealAt ? fromLocalInput(form.revealAt) : null
  if (form.revealAt && revealAt === null) errors.revealAt = 'admin.game.error.date'
  else if (revealAt !== null && freezeAt === null) errors.revealAt = 'admin.game.freeze.error_reveal_alone'
  else if (revealAt !== null && freezeAt !== null && revealAt <= freezeAt)
    errors.revealAt = 'admin.game.freeze.error_reveal_before'
  return errors
}

/**
 * The request body of a valid form. A game without a writeup keeps its deadline (the server
 * needs one), and an empty invite code opens the game to everyone.
 */
export function fromForm(form: GameForm, previous: GameModel): GameModel {
  const divisions = [...new Set(form.divisions.map((d) => d.trim()).filter(Boolean))]
  return {
    title: form.title.trim(),
    hidden: form.hidden,
    summary: form.summary,
    content: form.content,
    acceptWithoutReview: form.acceptWithoutReview,
    writeupRequired: form.writeupRequired,
    writeupDeadline: fromLocalInput(form.writeupDeadline) ?? previous.writeupDeadline,
    writeupNote: form.writeupNote,
    inviteCode: form.inviteCode.trim() || null,
    // An empty list (not null, which keeps the old set) removes every division.
    divisions,
    teamMemberCountLimit: Number(form.teamMemberCountLimit),
    containerCountLimit: Number(form.containerCountLimit),
    practiceMode: form.practiceMode,
    start: fromLocalInput(form.start)!,
    end: fromLocalInput(form.end)!,
    bloodBonus: percentsToBonus(form.bloodBonus)!,
    freezeAt: keepExact(form.freezeAt, previous.freezeAt),
    revealAt: keepExact(form.revealAt, previous.revealAt),
  }
}

/**
 * A time field as sent: unchanged text keeps the stored instant to the millisecond (the input
 * shows minutes only; a freeze moved by a few seconds would change the frozen board).
 */
function keepExact(text: string, previous: number | null | undefined): number | null {
  if (!text) return null
  if (previous != null && toLocalInput(previous) === text) return previous
  return fromLocalInput(text)
}
