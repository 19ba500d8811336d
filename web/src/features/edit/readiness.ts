import type { EditChallenge } from './api'
import { isContainerType } from './flag-rules'

/** One line of a challenge's checklist: done or not, and whether it stops the challenge opening. */
export interface ReadinessItem {
  key: 'content' | 'flags' | 'image' | 'attachment'
  done: boolean
  /** Required items must be done before the challenge can be enabled. */
  required: boolean
}

type Fields = Pick<EditChallenge, 'type' | 'content' | 'flags' | 'containerImage' | 'attachment'>

/**
 * What still stands between a challenge and the players, in the order an organiser fills it in.
 * Flags are required where the server requires them (every type but dynamic containers, whose
 * flags come from the template); container types need an image to start.
 */
export function challengeReadiness(c: Fields): ReadinessItem[] {
  const items: ReadinessItem[] = [{ key: 'content', done: c.content.trim() !== '', required: false }]
  if (c.type !== 'DynamicContainer') items.push({ key: 'flags', done: c.flags.length > 0, required: true })
  if (isContainerType(c.type)) items.push({ key: 'image', done: !!c.containerImage?.trim(), required: true })
  if (c.type === 'StaticAttachment')
    items.push({ key: 'attachment', done: c.attachment != null, required: false })
  return items
}

/** True when nothing required is missing. */
export const canEnable = (items: ReadinessItem[]) => items.every((i) => i.done || !i.required)
