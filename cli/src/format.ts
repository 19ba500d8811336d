import type { FieldChange, Plan } from './plan.ts'

const MAX = 60

function show(v: unknown): string {
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v ?? null)
  return s.length > MAX ? `${s.slice(0, MAX - 1)}…` : s
}

/** Long text changes read better as "which line differs" than as two truncated strings. */
function showChange(c: FieldChange): string {
  if (typeof c.from === 'string' && typeof c.to === 'string' && (c.from.length > MAX || c.to.length > MAX)) {
    const a = c.from.split('\n')
    const b = c.to.split('\n')
    let i = 0
    while (i < a.length && i < b.length && a[i] === b[i]) i++
    return `${c.field}: line ${i + 1} differs: ${show(a[i] ?? '')} → ${show(b[i] ?? '')}`
  }
  return `${c.field}: ${show(c.from)} → ${show(c.to)}`
}

/** The plan as people read it, one challenge a line, changes indented below. */
export function formatPlan(p: Plan): string {
  const lines: string[] = []
  const count = { create: 0, change: 0, unchanged: 0, remove: 0, 'server-only': 0 }
  for (const item of p.items) {
    count[item.action]++
    switch (item.action) {
      case 'create':
        lines.push(`+ create  ${item.key}  "${item.title}" (${item.desired.type}, ${item.desired.category})`)
        break
      case 'change': {
        const how = item.recreate ? ' (type differs: must be deleted and created again)' : ''
        const adopt = item.adopted ? ' (matched by title; will be linked)' : ''
        lines.push(`~ change  ${item.key}  #${item.id} "${item.title}"${how}${adopt}`)
        for (const c of item.changes) lines.push(`      ${showChange(c)}`)
        break
      }
      case 'unchanged':
        lines.push(`= same    ${item.key}  #${item.id}`)
        break
      case 'remove':
        lines.push(`- remove  ${item.key}  #${item.id} "${item.title}" (folder gone)`)
        break
      case 'server-only': {
        const why = item.key ? ` (key ${item.key}, folder gone)` : p.prune ? ' (not made by a sync)' : ''
        lines.push(`? server  #${item.id} "${item.title}"${why}: left alone`)
        break
      }
    }
  }
  for (const n of p.notes) lines.push(`note: ${n}`)
  const removing = p.prune ? `${count.remove} to remove, ` : ''
  lines.push(
    `${count.create} to create, ${count.change} to change, ${count.unchanged} unchanged, ${removing}${count['server-only']} only on the server`,
  )
  return lines.join('\n')
}
