import type { ContainerInstance } from './api'

export interface InstanceFilter {
  /** A game id as text ('' for every game), as the select gives it. */
  game: string
  /** Parts of the team name and of the challenge title, case-insensitive. */
  team: string
  challenge: string
}

export const NO_FILTER: InstanceFilter = { game: '', team: '', challenge: '' }

const has = (text: string | undefined, part: string) =>
  !part.trim() || (text ?? '').toLocaleLowerCase().includes(part.trim().toLocaleLowerCase())

/** The instances that match every filter (client-side: the list is every running container). */
export function filterInstances(list: ContainerInstance[], filter: InstanceFilter): ContainerInstance[] {
  return list.filter(
    (i) =>
      (!filter.game || String(i.game?.id) === filter.game) &&
      has(i.team?.name, filter.team) &&
      has(i.challenge?.title, filter.challenge),
  )
}

/** The games the instances belong to, once each, by title: the game filter's choices. */
export function instanceGames(list: ContainerInstance[]): { id: number; title: string }[] {
  const games = new Map<number, string>()
  for (const i of list) if (i.game) games.set(i.game.id, i.game.title)
  return [...games].map(([id, title]) => ({ id, title })).sort((a, b) => a.title.localeCompare(b.title))
}

/** A container id short enough for a table cell (Docker's own short form is 12 characters). */
export const shortId = (id: string) => id.slice(0, 12)
