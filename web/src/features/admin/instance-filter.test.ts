import { describe, expect, it } from 'vitest'
import type { ContainerInstance } from './api'
import { filterInstances, instanceGames, NO_FILTER, shortId } from './instance-filter'

const instance = (game: [number, string] | null, team: string | null, challenge: string | null) =>
  ({
    game: game && { id: game[0], title: game[1] },
    team: team && { id: 1, name: team, avatar: null },
    challenge: challenge && { id: 1, title: challenge, category: 'Web' },
    image: 'img',
    containerGuid: 'g',
    containerId: 'c',
    startedAt: 0,
    expectStopAt: 0,
    ip: '127.0.0.1',
    port: 1,
  }) as ContainerInstance

const list = [
  instance([2, 'Spring CTF'], 'Red Otters', 'Cookie Jar'),
  instance([1, 'Autumn CTF'], 'Blue Herons', 'Heap Party'),
  instance(null, null, null),
]

describe(filterInstances, () => {
  it('keeps everything without a filter', () => {
    expect(filterInstances(list, NO_FILTER)).toHaveLength(3)
  })

  it('matches the game id and parts of the names, ignoring case and spaces', () => {
    expect(filterInstances(list, { ...NO_FILTER, game: '1' })).toEqual([list[1]])
    expect(filterInstances(list, { ...NO_FILTER, team: ' otter ' })).toEqual([list[0]])
    expect(filterInstances(list, { ...NO_FILTER, challenge: 'HEAP' })).toEqual([list[1]])
    expect(filterInstances(list, { game: '2', team: 'herons', challenge: '' })).toEqual([])
  })
})

describe(instanceGames, () => {
  it('lists each game once, by title', () => {
    expect(instanceGames([...list, list[0]!])).toEqual([
      { id: 1, title: 'Autumn CTF' },
      { id: 2, title: 'Spring CTF' },
    ])
  })
})

describe(shortId, () => {
  it('keeps Docker’s 12 characters', () => {
    expect(shortId('0123456789abcdef0123')).toBe('0123456789ab')
  })
})
