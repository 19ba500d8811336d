import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generatePassword, isStrongPassword, PASSWORD_MIN_LENGTH, passwordRules } from './password.ts'

describe(isStrongPassword, () => {
  it.each([
    ['Abc123', true],
    ['Ab1', false],
    ['abcdef1', false],
    ['ABCDEF1', false],
    ['Abcdefg', false],
    ['Пароль1п', true],
  ])('judges %j as %s', (password, strong) => expect(isStrongPassword(password)).toBe(strong))

  it('counts the length in UTF-16 code units, as the reference does: an emoji is two', () => {
    expect(PASSWORD_MIN_LENGTH).toBe(6)
    // Five code points, six code units: long enough.
    expect('Ab1c😀'.length).toBe(6)
    expect(isStrongPassword('Ab1c😀')).toBe(true)
    // Four code points, five code units: one short.
    expect(isStrongPassword('Ab1😀')).toBe(false)
    expect(passwordRules('Ab1😀')).toEqual({ length: false, digit: true, lower: true, upper: true })
    expect(isStrongPassword('Ab1cd')).toBe(false)
    expect(isStrongPassword('Ab1cde')).toBe(true)
  })
})

describe(generatePassword, () => {
  it('always yields 16 characters meeting the policy with a special character', () => {
    for (let i = 0; i < 200; i++) {
      const p = generatePassword(randomInt)
      expect(p).toHaveLength(16)
      expect(isStrongPassword(p)).toBe(true)
      expect(p).toMatch(/[!@#$%^&*()\-_=+]/)
    }
  })
})
