import { describe, expect, it } from 'vitest'
import { eventMessage } from './event-text'

const base = { user: 'alice', team: 'Red' }

describe(eventMessage, () => {
  it('tells accepted from wrong flags and names the challenge', () => {
    expect(
      eventMessage({ ...base, type: 'FlagSubmit', values: ['Accepted', 'flag{x}', 'Warmup', '3'] }),
    ).toEqual({
      key: 'game.event.flag_accepted',
      values: { team: 'Red', user: 'alice', flag: 'flag{x}', challenge: 'Warmup' },
    })
    expect(
      eventMessage({ ...base, type: 'FlagSubmit', values: ['WrongAnswer', 'nope', 'Warmup', '3'] }).key,
    ).toBe('game.event.flag_wrong')
  })

  it('reads container events as [id, title]', () => {
    expect(eventMessage({ ...base, type: 'ContainerStart', values: ['3', 'Web 1'] }).values.challenge).toBe(
      'Web 1',
    )
    expect(eventMessage({ ...base, type: 'ContainerDestroy', values: ['3', 'Web 1'] }).key).toBe(
      'game.event.container_destroy',
    )
  })

  it('names both teams of a cheat', () => {
    expect(
      eventMessage({ ...base, type: 'CheatDetected', values: ['Web 1', 'Red', 'Blue'] }).values,
    ).toMatchObject({
      challenge: 'Web 1',
      submitter: 'Red',
      owner: 'Blue',
    })
  })
})
