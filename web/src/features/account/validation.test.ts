import { describe, expect, it } from 'vitest'
import {
  checkBio,
  checkEmail,
  checkLoginPassword,
  checkNewPassword,
  checkPhone,
  checkRetype,
  checkUserName,
} from './validation'

describe(checkEmail, () => {
  it.each([
    ['alice@example.org', null],
    ['  bob@x.io ', null],
    ['', 'required'],
    ['alice', 'email'],
    ['alice@example', 'email'],
    ['a b@example.org', 'email'],
  ])('judges %j as %s', (value, problem) => {
    expect(checkEmail(value)).toBe(problem)
  })
})

describe(checkUserName, () => {
  it.each([
    ['abc', null],
    ['fifteen_chars_x', null],
    ['ab', 'user_name_length'],
    ['sixteen_chars_xy', 'user_name_length'],
    ['   ', 'required'],
    ['名前です', null],
  ])('judges %j as %s', (value, problem) => {
    expect(checkUserName(value)).toBe(problem)
  })
})

describe(checkLoginPassword, () => {
  it('needs six characters but no particular kinds', () => {
    expect(checkLoginPassword('')).toBe('required')
    expect(checkLoginPassword('12345')).toBe('password_short')
    expect(checkLoginPassword('aaaaaa')).toBeNull()
  })
})

describe(checkNewPassword, () => {
  it('applies the server policy', () => {
    expect(checkNewPassword('')).toBe('required')
    expect(checkNewPassword('aB3')).toBe('password_short')
    expect(checkNewPassword('abcdef1')).toBe('password_weak')
    expect(checkNewPassword('Abcdef1')).toBeNull()
  })

  it('counts the length in UTF-16 code units, as the server does', () => {
    expect(checkNewPassword('Ab1c😀')).toBeNull()
    expect(checkNewPassword('Ab1😀')).toBe('password_short')
    expect(checkNewPassword('Ab1cd')).toBe('password_short')
    expect(checkNewPassword('Ab1cde')).toBeNull()
  })
})

describe(checkRetype, () => {
  it('requires the same text twice', () => {
    expect(checkRetype('Abcdef1', 'Abcdef1')).toBeNull()
    expect(checkRetype('Abcdef1', 'abcdef1')).toBe('retype')
  })
})

describe(checkBio, () => {
  it('allows up to 128 characters', () => {
    expect(checkBio('x'.repeat(128))).toBeNull()
    expect(checkBio('x'.repeat(129))).toBe('bio_long')
  })
})

describe(checkPhone, () => {
  it.each([
    ['', null],
    ['+49 30 1234567', null],
    ['030 (123) 45-67', null],
    ['(030) 123', 'phone'],
    ['call me', 'phone'],
    ['1', 'phone'],
  ])('judges %j as %s', (value, problem) => {
    expect(checkPhone(value)).toBe(problem)
  })
})
