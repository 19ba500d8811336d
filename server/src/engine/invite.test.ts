import { describe, expect, it } from 'vitest'
import { formatInviteCode, parseInviteCode } from './invite.ts'

const token = '0123456789abcdef0123456789abcdef'

describe(parseInviteCode, () => {
  it('reads what formatInviteCode writes, even when the name holds colons', () => {
    expect(parseInviteCode(formatInviteCode('a:b:c', 12, token))).toEqual({ teamId: 12, token })
  })
  it.each([
    '',
    'team:12',
    `team:x:${token}`,
    `team:12:${token.toUpperCase()}`,
    `team:12:${token}0`,
    `team:1234567890:${token}`,
  ])('refuses %j', (code) => expect(parseInviteCode(code)).toBeNull())
})
