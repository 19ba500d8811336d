import type { EventType } from '@/api/types'

interface EventLike {
  type: EventType
  values: string[]
  user: string
  team: string
}

/** A translation key and its values for a game event, by type (game-engine §5.4). */
export function eventMessage(event: EventLike): { key: string; values: Record<string, string> } {
  const [a = '', b = '', c = ''] = event.values
  const who = { team: event.team || '?', user: event.user || '?' }
  switch (event.type) {
    case 'FlagSubmit':
      // values: [result, answer, challenge title, challenge id]
      return {
        key: a === 'Accepted' ? 'game.event.flag_accepted' : 'game.event.flag_wrong',
        values: { ...who, flag: b, challenge: c },
      }
    case 'ContainerStart':
      return { key: 'game.event.container_start', values: { ...who, challenge: b } }
    case 'ContainerDestroy':
      return { key: 'game.event.container_destroy', values: { ...who, challenge: b } }
    case 'CheatDetected':
      // values: [challenge title, submitting team, owning team]
      return { key: 'game.event.cheat', values: { ...who, challenge: a, submitter: b, owner: c } }
    default:
      return { key: 'game.event.normal', values: { ...who, text: event.values.join(' ') } }
  }
}
