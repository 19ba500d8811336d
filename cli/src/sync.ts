import type { Api } from './api.ts'
import type { ResolvedAttachment } from './attachment.ts'
import { type DesiredChallenge, type Plan, type PlanItem, toUpdateModel } from './plan.ts'
import type { ChallengeUpdateModel, ServerChallenge } from './server-model.ts'

export interface SyncResult {
  applied: number
  failed: number
}

type ChangeItem = Extract<PlanItem, { action: 'change' }>

/** Uploads a local handout first, so a failed upload leaves the challenge untouched. */
async function attachmentBody(api: Api, a: ResolvedAttachment) {
  if (a.type === 'None') return { attachmentType: 'None' }
  if (a.type === 'Remote') return { attachmentType: 'Remote', remoteUrl: a.url }
  const hash = await api.upload(a.name, a.bytes)
  return { attachmentType: 'Local', fileHash: hash }
}

/**
 * A new challenge: create it, add its flags, set every field, attach the handout. If a step
 * fails the challenge is deleted again, so it is there completely or not at all.
 */
async function create(api: Api, game: number, d: DesiredChallenge): Promise<number> {
  const attachment = d.attachment.type === 'None' ? null : await attachmentBody(api, d.attachment)
  const c = await api.createChallenge(game, {
    title: d.title,
    category: d.category,
    type: d.type,
    sourceKey: d.key,
  })
  try {
    // Flags before fields: enabling a challenge needs its flags.
    if (d.type !== 'DynamicContainer' && d.flags.length) await api.addFlags(game, c.id, d.flags)
    await api.updateChallenge(game, c.id, toUpdateModel(d))
    if (attachment) await api.setAttachment(game, c.id, attachment)
  } catch (err) {
    await api.deleteChallenge(game, c.id).catch(() => {})
    throw err
  }
  return c.id
}

/** Server flags to remove and flag texts to add, counting duplicates. */
function flagDiff(want: string[], have: ServerChallenge['flags']) {
  const left = [...have]
  const add: string[] = []
  for (const f of want) {
    const i = left.findIndex((h) => h.flag === f)
    if (i >= 0) left.splice(i, 1)
    else add.push(f)
  }
  return { add, remove: left }
}

/**
 * An existing challenge: only the fields that differ are sent. The API has no transactions, so
 * the steps are ordered to keep the challenge playable throughout (flags are added before old
 * ones go, the handout is uploaded before it is switched); a failure stops the challenge there.
 */
async function change(api: Api, game: number, item: ChangeItem, d: DesiredChallenge, s: ServerChallenge) {
  const fields = new Set(item.changes.map((c) => c.field))
  const attachment = fields.has('attachment') ? await attachmentBody(api, d.attachment) : null
  const flags = fields.has('flags') ? flagDiff(d.flags, s.flags) : { add: [], remove: [] }
  if (flags.add.length) await api.addFlags(game, s.id, flags.add)
  const full = toUpdateModel(d) as Record<string, unknown>
  const body: Record<string, unknown> = {}
  for (const f of fields) if (f in full) body[f] = full[f]
  if (Object.keys(body).length) await api.updateChallenge(game, s.id, body as ChallengeUpdateModel)
  if (attachment) await api.setAttachment(game, s.id, attachment)
  for (const f of flags.remove) await api.deleteFlag(game, s.id, f.id)
}

/** Applies a plan one challenge at a time; a failure is reported and the next challenge goes on. */
export async function applyPlan(
  api: Api,
  game: number,
  p: Plan,
  server: ServerChallenge[],
  desired: DesiredChallenge[],
  log: (line: string) => void,
): Promise<SyncResult> {
  const byId = new Map(server.map((s) => [s.id, s]))
  const byKey = new Map(desired.map((d) => [d.key, d]))
  const result: SyncResult = { applied: 0, failed: 0 }
  for (const item of p.items) {
    if (item.action === 'unchanged' || item.action === 'server-only') continue
    try {
      if (item.action === 'remove') {
        await api.deleteChallenge(game, item.id)
        log(`removed ${item.key} (#${item.id})`)
      } else if (item.action === 'create') {
        const id = await create(api, game, item.desired)
        log(`created ${item.key} as #${id}`)
      } else if (item.recreate) {
        throw new Error(`its type differs from #${item.id} on the server; delete that challenge first`)
      } else {
        await change(api, game, item, byKey.get(item.key)!, byId.get(item.id)!)
        log(`changed ${item.key} (#${item.id}): ${item.changes.map((c) => c.field).join(', ')}`)
      }
      result.applied++
    } catch (err) {
      result.failed++
      log(`FAILED ${item.key}: ${(err as Error).message}`)
    }
  }
  return result
}
