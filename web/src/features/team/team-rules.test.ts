import { describe, expect, it } from 'vitest'
import { captainedCount, isCaptain, isInviteCode, maskInviteCode, sortMembers } from './team-rules'

const token = '0123456789abcdef0123456789abcdef'

describe(isInviteCode, () => {
  it('accepts name:id:token, also when the name holds colons or spaces', () => {
    expect(isInviteCode(`team:12:${token}`)).toBe(true)
    expect(isInviteCode(`a:b team:7:${token}`)).toBe(true)
    expect(isInviteCode(`  team:12:${token}\n`)).toBe(true)
  })

  it('rejects a missing name, id or token, upper-case hex and a short token', () => {
    expect(isInviteCode(`:12:${token}`)).toBe(false)
    expect(isInviteCode(`team::${token}`)).toBe(false)
    expect(isInviteCode(`team:x:${token}`)).toBe(false)
    expect(isInviteCode('team:12:')).toBe(false)
    expect(isInviteCode(`team:12:${token.toUpperCase()}`)).toBe(false)
    expect(isInviteCode(`team:12:${token.slice(1)}`)).toBe(false)
    expect(isInviteCode('')).toBe(false)
  })
})

describe(maskInviteCode, () => {
  it('hides the token and keeps the name and id', () => {
    expect(maskInviteCode(`team:12:${token}`)).toBe('team:12:••••••••••••')
  })
})

describe('captaincy helpers', () => {
  const teams = [
    {
      members: [
        { id: 'a', captain: true },
        { id: 'b', captain: false },
      ],
    },
    { members: [{ id: 'b', captain: true }] },
    { members: [{ id: 'a', captain: true }] },
  ]

  it('tells who captains a team and counts the teams a user captains', () => {
    expect(isCaptain(teams[0]!, 'a')).toBe(true)
    expect(isCaptain(teams[0]!, 'b')).toBe(false)
    expect(isCaptain(teams[0]!, undefined)).toBe(false)
    expect(captainedCount(teams, 'a')).toBe(2)
    expect(captainedCount(teams, 'b')).toBe(1)
  })

  it('lists the captain first', () => {
    expect(
      sortMembers([
        { id: 'x', captain: false },
        { id: 'y', captain: true },
      ]).map((m) => m.id),
    ).toEqual(['y', 'x'])
  })
})
