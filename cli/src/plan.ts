import type { ResolvedAttachment } from './attachment.ts'
import type { ChallengeSpec } from './challenge-yml/spec.ts'
import { isContainerType } from './challenge-yml/spec.ts'
import { linkOf } from './link.ts'
import type { ChallengeUpdateModel, ServerAttachment, ServerChallenge } from './server-model.ts'

/** A spec whose handout has been read and hashed, ready to compare with the server. */
export interface DesiredChallenge extends Omit<ChallengeSpec, 'attachment'> {
  attachment: ResolvedAttachment
}

export interface FieldChange {
  field: string
  from: unknown
  to: unknown
}

export type PlanItem =
  | { action: 'create'; key: string; title: string; desired: DesiredChallenge }
  /** `recreate`: the type differs, which the API cannot change in place. `adopted`: matched by title, not yet linked. */
  | {
      action: 'change'
      key: string
      id: number
      title: string
      changes: FieldChange[]
      recreate: boolean
      adopted: boolean
    }
  | { action: 'unchanged'; key: string; id: number; title: string }
  /** On the server, in no folder: reported, and left alone (see `remove`). */
  | { action: 'server-only'; id: number; title: string; key: string | null }
  /** With `prune`: tied to a folder that is gone, so deleted by the sync. */
  | { action: 'remove'; id: number; title: string; key: string }

export interface Plan {
  items: PlanItem[]
  /** True when a sync would create, change or remove anything. */
  hasWork: boolean
  notes: string[]
  /** Whether server-only challenges were considered for removal (`--prune`). */
  prune: boolean
}

export interface PlanOptions {
  /**
   * Remove server challenges tied to a folder that is gone. Challenges never tied to a folder
   * (made by hand) are only reported: a sync does not own them.
   */
  prune?: boolean
}

/** The update body that makes a server challenge match the file (sent field by field; absent keeps). */
export function toUpdateModel(d: DesiredChallenge): ChallengeUpdateModel {
  const body: ChallengeUpdateModel = {
    sourceKey: d.key,
    title: d.title,
    content: d.content,
    category: d.category,
    hints: d.hints,
  }
  const optional = [
    'isEnabled',
    'originalScore',
    'minScoreRate',
    'difficulty',
    'submissionLimit',
    'disableBloodBonus',
    'openAt',
    'closeAt',
  ] as const
  for (const k of optional) if (d[k] !== undefined) Object.assign(body, { [k]: d[k] })
  // "" clears a template on the server; null would keep it.
  if (d.type === 'DynamicContainer') body.flagTemplate = d.flagTemplate ?? ''
  if (d.container && isContainerType(d.type)) {
    body.containerImage = d.container.image
    body.containerExposePort = d.container.exposePort
    const c = d.container
    if (c.memoryLimit !== undefined) body.memoryLimit = c.memoryLimit
    if (c.cpuCount !== undefined) body.cpuCount = c.cpuCount
    if (c.storageLimit !== undefined) body.storageLimit = c.storageLimit
    if (c.enableTrafficCapture !== undefined) body.enableTrafficCapture = c.enableTrafficCapture
  }
  return body
}

/** How an attachment reads in a plan: the URL players would download. */
export function attachmentUrl(a: ResolvedAttachment): string | null {
  if (a.type === 'None') return null
  if (a.type === 'Remote') return a.url
  return `/assets/${a.hash}/${encodeURIComponent(a.name)}`
}

const serverAttachmentUrl = (a: ServerAttachment | null) => (a && a.type !== 'None' ? a.url : null)

/** The flag list the server would show; DynamicContainer detail never lists flags. */
const sortedFlags = (flags: string[]) => [...flags].sort()

function compare(d: DesiredChallenge, s: ServerChallenge): FieldChange[] {
  const changes: FieldChange[] = []
  const want = toUpdateModel(d) as Record<string, unknown>
  const have = s as unknown as Record<string, unknown>
  for (const [field, to] of Object.entries(want)) {
    const from = have[field] ?? (field === 'flagTemplate' ? '' : null)
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field, from, to })
  }
  if (d.type !== 'DynamicContainer') {
    const from = sortedFlags(s.flags.map((f) => f.flag))
    const to = sortedFlags(d.flags)
    if (JSON.stringify(from) !== JSON.stringify(to)) changes.push({ field: 'flags', from, to })
  }
  const fromUrl = serverAttachmentUrl(s.attachment)
  const toUrl = attachmentUrl(d.attachment)
  if (fromUrl !== toUrl) changes.push({ field: 'attachment', from: fromUrl, to: toUrl })
  if (s.type !== d.type) changes.unshift({ field: 'type', from: s.type, to: d.type })
  return changes
}

/**
 * What a sync would do: pair each desired challenge with the server challenge carrying its key
 * (else, once, with an unlinked one of the same title), then compare field by field. Pure.
 */
export function plan(desired: DesiredChallenge[], server: ServerChallenge[], opts: PlanOptions = {}): Plan {
  const prune = opts.prune ?? false
  const notes: string[] = []
  const byKey = new Map<string, ServerChallenge>()
  const unlinked: ServerChallenge[] = []
  for (const s of [...server].sort((a, b) => a.id - b.id)) {
    const key = linkOf(s)
    if (key === null) unlinked.push(s)
    else if (byKey.has(key)) {
      notes.push(`challenges ${byKey.get(key)!.id} and ${s.id} both carry key ${key}; ${s.id} is left alone`)
    } else byKey.set(key, s)
  }

  const used = new Set<number>()
  const items: PlanItem[] = []
  for (const d of [...desired].sort((a, b) => a.key.localeCompare(b.key))) {
    let s = byKey.get(d.key)
    let adopted = false
    if (!s) {
      const sameTitle = unlinked.filter((u) => u.title === d.title && !used.has(u.id))
      if (sameTitle.length === 1) {
        s = sameTitle[0]!
        adopted = true
      } else if (sameTitle.length > 1) {
        notes.push(
          `${d.key}: ${sameTitle.length} unlinked challenges are titled "${d.title}"; creating a new one`,
        )
      }
    }
    if (!s) {
      items.push({ action: 'create', key: d.key, title: d.title, desired: d })
      continue
    }
    used.add(s.id)
    const changes = compare(d, s)
    if (changes.length === 0) items.push({ action: 'unchanged', key: d.key, id: s.id, title: d.title })
    else {
      const recreate = changes.some((c) => c.field === 'type')
      items.push({ action: 'change', key: d.key, id: s.id, title: d.title, changes, recreate, adopted })
    }
  }
  for (const s of server) {
    if (used.has(s.id)) continue
    const key = linkOf(s)
    // A second challenge carrying a key another one holds is not the folder's: never pruned.
    const orphan = key !== null && byKey.get(key) === s
    if (prune && orphan) items.push({ action: 'remove', id: s.id, title: s.title, key })
    else items.push({ action: 'server-only', id: s.id, title: s.title, key })
  }
  const hasWork = items.some((i) => i.action === 'create' || i.action === 'change' || i.action === 'remove')
  return { items, hasWork, notes, prune }
}
