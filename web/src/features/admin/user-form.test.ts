import { describe, expect, it } from 'vitest'
import {
  type AdminTeam,
  type AdminUser,
  sortMembers,
  teamFormErrors,
  teamFormOf,
  toTeamUpdate,
  toUserUpdate,
  type UserForm,
  userFormErrors,
  userFormOf,
} from './user-form'

const user: AdminUser = {
  id: '6f1c0a4e-6f0e-4b7b-9c61-1e0f3c1d2b3a',
  userName: 'alice',
  realName: 'Alice A',
  stdNumber: '001',
  phone: null,
  bio: 'hi',
  registerTimeUtc: 0,
  lastVisitedUtc: 0,
  ip: '0.0.0.0',
  email: 'alice@example.org',
  avatar: null,
  role: 'User',
  emailConfirmed: true,
}

const form = (over: Partial<UserForm> = {}): UserForm => ({ ...userFormOf(user), ...over })

describe('user form', () => {
  it('starts from the user, a missing phone as empty text', () => {
    expect(userFormOf(user)).toEqual({
      userName: 'alice',
      email: 'alice@example.org',
      emailConfirmed: true,
      role: 'User',
      realName: 'Alice A',
      stdNumber: '001',
      phone: '',
      bio: 'hi',
    })
    expect(userFormErrors(form())).toEqual({})
  })

  it('checks the name, e-mail and phone as the server does', () => {
    expect(userFormErrors(form({ userName: '  ' }))).toEqual({ userName: { code: 'required' } })
    expect(userFormErrors(form({ userName: 'al' }))).toEqual({
      userName: { code: 'too_short', params: { min: 3 } },
    })
    expect(userFormErrors(form({ userName: 'x'.repeat(16) }))).toEqual({
      userName: { code: 'too_long', params: { max: 15 } },
    })
    expect(userFormErrors(form({ email: 'nope' }))).toEqual({ email: { code: 'email_invalid' } })
    expect(userFormErrors(form({ phone: 'abc' }))).toEqual({ phone: { code: 'phone_invalid' } })
    expect(userFormErrors(form({ phone: '+44 20 7946 0000' }))).toEqual({})
  })

  it('limits the free-text fields', () => {
    expect(userFormErrors(form({ bio: 'b'.repeat(129), stdNumber: 's'.repeat(65) }))).toEqual({
      bio: { code: 'too_long', params: { max: 128 } },
      stdNumber: { code: 'too_long', params: { max: 64 } },
    })
  })

  it('sends every field, trimmed, and the role only for someone else', () => {
    const edited = form({ userName: ' bob ', phone: ' ', role: 'Monitor' })
    expect(toUserUpdate(edited, false)).toEqual({
      userName: 'bob',
      email: 'alice@example.org',
      emailConfirmed: true,
      realName: 'Alice A',
      stdNumber: '001',
      phone: '',
      bio: 'hi',
      role: 'Monitor',
    })
    expect(toUserUpdate(edited, true)).not.toHaveProperty('role')
  })
})

describe('team form', () => {
  const team: AdminTeam = {
    id: 1,
    name: 'Red',
    bio: null,
    avatar: null,
    locked: false,
    members: [
      { id: 'b', userName: 'zed', bio: '', avatar: null, captain: false },
      { id: 'a', userName: 'amy', bio: '', avatar: null, captain: false },
      { id: 'c', userName: 'max', bio: '', avatar: null, captain: true },
    ],
  }

  it('starts from the team and checks name and bio lengths', () => {
    expect(teamFormOf(team)).toEqual({ name: 'Red', bio: '' })
    expect(teamFormErrors({ name: ' ', bio: '' })).toEqual({ name: { code: 'required' } })
    expect(teamFormErrors({ name: 'n'.repeat(21), bio: 'b'.repeat(73) })).toEqual({
      name: { code: 'too_long', params: { max: 20 } },
      bio: { code: 'too_long', params: { max: 72 } },
    })
  })

  it('sends an emptied bio as null (kept by the server)', () => {
    expect(toTeamUpdate({ name: ' Blue ', bio: '  ' })).toEqual({ name: 'Blue', bio: null })
  })

  it('lists the captain first, then members by name', () => {
    expect(sortMembers(team.members).map((m) => m.userName)).toEqual(['max', 'amy', 'zed'])
  })
})
