import { describe, expect, it } from 'vitest'
import { passwordChecks, passwordStrength } from './password-strength'

describe(passwordChecks, () => {
  it('reports each rule separately', () => {
    expect(passwordChecks('aB3!xx')).toEqual({
      length: true,
      digit: true,
      lower: true,
      upper: true,
      symbol: true,
    })
    expect(passwordChecks('abc')).toEqual({
      length: false,
      digit: false,
      lower: true,
      upper: false,
      symbol: false,
    })
    expect(passwordChecks('ABC 12')).toEqual({
      length: true,
      digit: true,
      lower: false,
      upper: true,
      symbol: true,
    })
  })

  it('counts letters beyond ASCII', () => {
    expect(passwordChecks('Éé')).toMatchObject({ lower: true, upper: true })
  })
})

describe(passwordStrength, () => {
  it('is empty for no password and full when every rule is met', () => {
    expect(passwordStrength('')).toBe(0)
    expect(passwordStrength('aB3!xyz')).toBe(100)
  })

  it('stays low while the password is too short, whatever it contains', () => {
    expect(passwordStrength('aB3!')).toBe(40)
  })

  it('grows with every rule met', () => {
    expect(passwordStrength('abcdef')).toBeLessThan(passwordStrength('abcdeF'))
    expect(passwordStrength('abcdeF')).toBeLessThan(passwordStrength('abcde3F'))
  })
})
