import type { ChallengeCategory, ChallengeType } from '@/api/types'
import { fromLocalInput, toLocalInput } from '@/utils/datetime'
import { isContainerType } from './flag-rules'

/** The challenge editor's fields as typed (number inputs may hold '' while being edited). */
export interface ChallengeForm {
  title: string
  category: ChallengeCategory
  content: string
  hints: string[]
  submissionLimit: number | string
  originalScore: number | string
  difficulty: number | string
  /** The minimum score as a percentage of the original (the API stores a 0..1 rate). */
  minScorePercent: number | string
  disableBloodBonus: boolean
  fileName: string
  containerImage: string
  containerExposePort: number | string
  cpuCount: number | string
  memoryLimit: number | string
  storageLimit: number | string
  enableTrafficCapture: boolean
  /** Scheduled release, as `datetime-local` text; '' means none. */
  openAt: string
  closeAt: string
}

export interface ChallengeSource {
  title: string
  category: ChallengeCategory
  type: ChallengeType
  content: string
  hints: string[]
  submissionLimit: number
  originalScore: number
  difficulty: number
  minScoreRate: number
  disableBloodBonus: boolean
  fileName: string | null
  containerImage: string | null
  containerExposePort: number | null
  cpuCount: number | null
  memoryLimit: number | null
  storageLimit: number | null
  enableTrafficCapture: boolean
  openAt?: number | null
  closeAt?: number | null
}

export function toChallengeForm(c: ChallengeSource): ChallengeForm {
  return {
    title: c.title,
    category: c.category,
    content: c.content,
    hints: [...c.hints],
    submissionLimit: c.submissionLimit,
    originalScore: c.originalScore,
    difficulty: c.difficulty,
    minScorePercent: Math.round(c.minScoreRate * 1000) / 10,
    disableBloodBonus: c.disableBloodBonus,
    fileName: c.fileName ?? '',
    containerImage: c.containerImage ?? '',
    containerExposePort: c.containerExposePort ?? 80,
    cpuCount: c.cpuCount ?? 1,
    memoryLimit: c.memoryLimit ?? 64,
    storageLimit: c.storageLimit ?? 256,
    enableTrafficCapture: c.enableTrafficCapture,
    openAt: c.openAt == null ? '' : toLocalInput(c.openAt),
    closeAt: c.closeAt == null ? '' : toLocalInput(c.closeAt),
  }
}

export type ChallengeFormErrors = Partial<Record<keyof ChallengeForm, string>>

const inRange = (v: number | string, min: number, max: number, integer = true) =>
  typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max && (!integer || Number.isInteger(v))

/** Translation keys of what is wrong, per field (the server's ranges, checked first here). */
export function validateChallengeForm(form: ChallengeForm, type: ChallengeType): ChallengeFormErrors {
  const e: ChallengeFormErrors = {}
  if (!form.title.trim()) e.title = 'admin.challenge.error.title_required'
  if (!inRange(form.originalScore, 0, 1_000_000)) e.originalScore = 'admin.challenge.error.score'
  if (!inRange(form.minScorePercent, 0, 100, false)) e.minScorePercent = 'admin.challenge.error.percent'
  if (!inRange(form.difficulty, 0, 1_000_000, false)) e.difficulty = 'admin.challenge.error.difficulty'
  if (!inRange(form.submissionLimit, 0, 10_000)) e.submissionLimit = 'admin.challenge.error.submission_limit'
  if (type === 'DynamicAttachment' && !form.fileName.trim()) e.fileName = 'admin.challenge.error.file_name'
  if (isContainerType(type)) {
    if (!form.containerImage.trim()) e.containerImage = 'admin.challenge.error.image'
    if (!inRange(form.containerExposePort, 1, 65_535)) e.containerExposePort = 'admin.challenge.error.port'
    if (!inRange(form.cpuCount, 1, 1024)) e.cpuCount = 'admin.challenge.error.cpu'
    if (!inRange(form.memoryLimit, 32, 1_048_576)) e.memoryLimit = 'admin.challenge.error.memory'
    if (!inRange(form.storageLimit, 128, 1_048_576)) e.storageLimit = 'admin.challenge.error.storage'
  }
  const openAt = fromLocalInput(form.openAt)
  const closeAt = fromLocalInput(form.closeAt)
  if (form.openAt && openAt === null) e.openAt = 'admin.challenge.schedule.error_date'
  if (form.closeAt && closeAt === null) e.closeAt = 'admin.challenge.schedule.error_date'
  if (openAt !== null && closeAt !== null && closeAt <= openAt)
    e.closeAt = 'admin.challenge.schedule.error_order'
  return e
}

/**
 * The update body. Blank hints are dropped; container settings are sent only for container
 * types (the others have no use for them), the download name only when one is set.
 */
export function challengeBody(form: ChallengeForm, type: ChallengeType, schedule = false) {
  return {
    title: form.title.trim(),
    category: form.category,
    content: form.content,
    hints: form.hints.map((h) => h.trim()).filter(Boolean),
    submissionLimit: Number(form.submissionLimit),
    originalScore: Number(form.originalScore),
    difficulty: Number(form.difficulty),
    minScoreRate: Math.round(Number(form.minScorePercent) * 10) / 1000,
    disableBloodBonus: form.disableBloodBonus,
    ...(form.fileName.trim() ? { fileName: form.fileName.trim() } : {}),
    ...(isContainerType(type)
      ? {
          containerImage: form.containerImage.trim(),
          containerExposePort: Number(form.containerExposePort),
          cpuCount: Number(form.cpuCount),
          memoryLimit: Number(form.memoryLimit),
          storageLimit: Number(form.storageLimit),
          enableTrafficCapture: form.enableTrafficCapture,
        }
      : {}),
    // Only while scheduled release is on: otherwise the stored schedule is left as it is.
    ...(schedule ? { openAt: fromLocalInput(form.openAt), closeAt: fromLocalInput(form.closeAt) } : {}),
  }
}

type Listed = { id: number; category: string; title: string }

/** The order challenges are listed in: by category, then by title. */
export const sortChallenges = <C extends Listed>(list: C[]) =>
  [...list].sort((a, b) => a.category.localeCompare(b.category) || a.title.localeCompare(b.title))

/** Previous and next challenge in the list's order. */
export function neighbours<C extends Listed>(
  list: C[],
  id: number,
): { previous?: C; next?: C; index: number } {
  const sorted = sortChallenges(list)
  const index = sorted.findIndex((c) => c.id === id)
  return {
    previous: index > 0 ? sorted[index - 1] : undefined,
    next: index >= 0 ? sorted[index + 1] : undefined,
    index,
  }
}
