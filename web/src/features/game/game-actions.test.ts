import { describe, expect, it } from 'vitest'
import { type ActionInput, areaDenial, gameActions, visibleTabs } from './game-actions'

const base: ActionInput = {
  phase: 'running',
  practiceMode: false,
  status: 'Unsubmitted',
  signedIn: true,
  teamCount: 1,
}

describe(gameActions, () => {
  it('lets a signed-in user with a team join a running game', () => {
    const sut = gameActions(base)
    expect(sut.joinBlock).toBeNull()
    expect(sut.leave).toBe(false)
    expect(sut.challenges).toBe(false)
    expect(sut.scoreboard).toBe(true)
    expect(sut.alert).toBeNull()
  })

  it('explains why joining is blocked', () => {
    expect(gameActions({ ...base, signedIn: false, teamCount: 0 }).joinBlock).toBe('login')
    expect(gameActions({ ...base, teamCount: 0 }).joinBlock).toBe('no_team')
    expect(gameActions({ ...base, phase: 'ended' }).joinBlock).toBe('ended')
    expect(gameActions({ ...base, status: 'Pending' }).joinBlock).toBe('joined')
    expect(gameActions({ ...base, status: 'Accepted' }).joinBlock).toBe('joined')
  })

  it('still takes players after the end of a practice-mode game', () => {
    expect(gameActions({ ...base, phase: 'ended', practiceMode: true }).joinBlock).toBeNull()
  })

  it('lets a rejected team join again and leave', () => {
    const sut = gameActions({ ...base, status: 'Rejected' })
    expect(sut.joinBlock).toBeNull()
    expect(sut.leave).toBe(true)
    expect(sut.alert).toBe('rejected')
  })

  it('offers leaving only while the registration is pending or rejected', () => {
    expect(gameActions({ ...base, status: 'Pending' }).leave).toBe(true)
    expect(gameActions({ ...base, status: 'Accepted' }).leave).toBe(false)
    expect(gameActions({ ...base, status: 'Suspended' }).leave).toBe(false)
  })

  it('opens the challenges to accepted teams once started, and after the end only in practice mode', () => {
    expect(gameActions({ ...base, status: 'Accepted' }).challenges).toBe(true)
    expect(gameActions({ ...base, status: 'Accepted', phase: 'upcoming' }).challenges).toBe(false)
    expect(gameActions({ ...base, status: 'Accepted', phase: 'ended' }).challenges).toBe(false)
    expect(gameActions({ ...base, status: 'Accepted', phase: 'ended', practiceMode: true }).challenges).toBe(
      true,
    )
  })

  it('shows the scoreboard once the game has started', () => {
    expect(gameActions({ ...base, phase: 'upcoming' }).scoreboard).toBe(false)
    expect(gameActions({ ...base, phase: 'ended' }).scoreboard).toBe(true)
  })

  it('picks the alert for the status', () => {
    expect(gameActions({ ...base, status: 'Pending' }).alert).toBe('pending')
    expect(gameActions({ ...base, status: 'Suspended' }).alert).toBe('suspended')
    expect(gameActions({ ...base, teamCount: 0 }).alert).toBe('no_team')
    expect(gameActions({ ...base, status: 'Accepted', phase: 'upcoming' }).alert).toBe('not_started')
    expect(gameActions({ ...base, signedIn: false, teamCount: 0 }).alert).toBeNull()
  })
})

describe(areaDenial, () => {
  const area = { phase: 'running', practiceMode: false, status: 'Accepted', monitor: false } as const

  it('sends everyone back before the start', () => {
    expect(areaDenial('scoreboard', { ...area, phase: 'upcoming' })).toBe('not_started')
    expect(areaDenial('monitor', { ...area, phase: 'upcoming', monitor: true })).toBe('not_started')
  })

  it('lets anyone see the scoreboard after the start', () => {
    expect(areaDenial('scoreboard', { ...area, status: 'Unsubmitted' })).toBeNull()
  })

  it('lets only accepted teams open the challenges, naming the reason otherwise', () => {
    expect(areaDenial('challenges', area)).toBeNull()
    expect(areaDenial('challenges', { ...area, status: 'Unsubmitted' })).toBe('not_joined')
    expect(areaDenial('challenges', { ...area, status: 'Pending' })).toBe('pending')
    expect(areaDenial('challenges', { ...area, status: 'Suspended' })).toBe('suspended')
    expect(areaDenial('challenges', { ...area, status: 'Rejected' })).toBe('rejected')
  })

  it('closes the challenges after the end unless practice mode is on or the user monitors', () => {
    expect(areaDenial('challenges', { ...area, phase: 'ended' })).toBe('ended')
    expect(areaDenial('challenges', { ...area, phase: 'ended', practiceMode: true })).toBeNull()
    expect(areaDenial('challenges', { ...area, phase: 'ended', monitor: true })).toBeNull()
  })
})

describe(visibleTabs, () => {
  it('shows challenges to accepted teams, the scoreboard to all and monitoring to Monitor+', () => {
    const input = { phase: 'running', practiceMode: false, status: 'Accepted', monitor: false } as const
    expect(visibleTabs(input)).toEqual(['challenges', 'scoreboard'])
    expect(visibleTabs({ ...input, status: 'Pending', monitor: true })).toEqual(['scoreboard', 'monitor'])
    expect(visibleTabs({ ...input, phase: 'ended' })).toEqual(['scoreboard'])
    expect(visibleTabs({ ...input, phase: 'ended', practiceMode: true })).toEqual([
      'challenges',
      'scoreboard',
    ])
  })
})
