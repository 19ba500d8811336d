import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { generatePassword, isStrongPassword } from './password.ts'

describe(isStrongPassword, () => {
  it.each([
    ['Abc123', true],
    ['Ab1', false],
    ['abcdef1', false],
    ['ABCDEF1', false],
    ['Abcdefg', false],
    ['Пароль1п', true],
  ])('judges %j as %s', (password, strong) => expect(isStrongPassword(password)).toBe(strong))
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
