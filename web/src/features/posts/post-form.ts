import type { PostDetail, PostEdit } from './api'

/** Post ids are 8 hex characters; anything else is not a post (the page shows "not found"). */
export const isPostId = (id: string | undefined): id is string => !!id && /^[0-9a-f]{8}$/i.test(id)

/** The editor's fields; tags as a list, everything else as typed. */
export interface PostDraft {
  title: string
  summary: string
  content: string
  tags: string[]
  isPinned: boolean
}

export const TITLE_MAX = 50

export const emptyDraft = (): PostDraft => ({
  title: '',
  summary: '',
  content: '',
  tags: [],
  isPinned: false,
})

export function draftOf(post: PostDetail): PostDraft {
  return {
    title: post.title,
    summary: post.summary,
    content: post.content,
    tags: post.tags ?? [],
    isPinned: post.isPinned,
  }
}

/** Whether the draft differs from what was loaded or last saved. */
export function isDirty(draft: PostDraft, saved: PostDraft): boolean {
  return (
    draft.title !== saved.title ||
    draft.summary !== saved.summary ||
    draft.content !== saved.content ||
    draft.isPinned !== saved.isPinned ||
    draft.tags.length !== saved.tags.length ||
    draft.tags.some((tag, i) => tag !== saved.tags[i])
  )
}

/** What is wrong with the title, as an i18n key under `post.edit`, or null. */
export function titleProblem(title: string): 'title_required' | 'title_long' | null {
  const trimmed = title.trim()
  if (!trimmed) return 'title_required'
  return trimmed.length > TITLE_MAX ? 'title_long' : null
}

/** The request body: trimmed title, tags without blanks or repeats. */
export function toBody(draft: PostDraft): PostEdit {
  return {
    title: draft.title.trim(),
    summary: draft.summary,
    content: draft.content,
    tags: [...new Set(draft.tags.map((t) => t.trim()).filter(Boolean))],
    isPinned: draft.isPinned,
  }
}

/** The current page of a list, clamped to the pages there are (1-based). */
export function pageOf<T>(
  items: readonly T[],
  page: number,
  size: number,
): { items: T[]; page: number; pages: number } {
  const pages = Math.max(1, Math.ceil(items.length / size))
  const current = Math.min(Math.max(1, Number.isFinite(page) ? Math.floor(page) : 1), pages)
  return { items: items.slice((current - 1) * size, current * size), page: current, pages }
}
