import { describe, expect, it } from 'vitest'
import { generateFlag, isTemplateStrong, leet, leetEntropy } from './flag-template.ts'

const fixed = {
  random: () => 0,
  guid: () => '0f8fad5b-d9cb-469f-a165-70867728950e',
  teamHash: 'abcdef012345',
}
/** Always the last choice: makes every leetable character visibly change. */
const last = (n: number) => n - 1

describe(generateFlag, () => {
  it('makes flag{guid} without a template', () => {
    expect(generateFlag(null, fixed)).toBe('flag{0f8fad5b-d9cb-469f-a165-70867728950e}')
    expect(generateFlag('', fixed)).toBe('flag{0f8fad5b-d9cb-469f-a165-70867728950e}')
  })

  it('replaces every [GUID] and keeps the rest as written', () => {
    expect(generateFlag('ctf{[GUID]_and_[GUID]}', fixed)).toBe(
      'ctf{0f8fad5b-d9cb-469f-a165-70867728950e_and_0f8fad5b-d9cb-469f-a165-70867728950e}',
    )
  })

  it('puts the team hash in and keeps the text when there is no prefix', () => {
    expect(generateFlag('flag{hello world [TEAM_HASH]}', fixed)).toBe('flag{hello world abcdef012345}')
  })

  it('leets the whole body of a plain template, inside the braces only, spaces to _', () => {
    expect(generateFlag('flag{leet me}', { ...fixed, random: last })).toBe('flag{I337_m3}')
  })

  it('strips [LEET] and [CLEET] and leets with the matching table, with or without [TEAM_HASH]', () => {
    expect(generateFlag('[LEET]flag{sos}', { ...fixed, random: last })).toBe('flag{505}')
    expect(generateFlag('[CLEET]flag{sos}', { ...fixed, random: last })).toBe('flag{$#$}')
    expect(generateFlag('[CLEET]flag{sos_[TEAM_HASH]}', { ...fixed, random: last })).toBe(
      'flag{$#$_abcdef012345}',
    )
  })

  it('never alters the placeholder names themselves', () => {
    expect(leet('{a[TEAM_HASH]b}', { A: 'A4', B: 'B8', T: 'T7', E: 'E3' }, last)).toBe('{4[TEAM_HASH]8}')
  })
})

describe(leetEntropy, () => {
  it('counts log2 of the choices for each leetable character inside braces', () => {
    // a: 3 choices, b: 4 choices
    expect(leetEntropy('x{ab}')).toBeCloseTo(Math.log2(3) + Math.log2(4))
    expect(leetEntropy('[CLEET]x{ab}')).toBeCloseTo(Math.log2(4) + Math.log2(4))
  })

  it('judges templates by the 32-bit rule', () => {
    expect(isTemplateStrong('flag{short}')).toBe(false)
    expect(isTemplateStrong('flag{[GUID]}')).toBe(true)
    expect(isTemplateStrong('flag{[TEAM_HASH]}')).toBe(true)
    expect(isTemplateStrong('flag{this_is_a_rather_long_sentence_to_leet}')).toBe(true)
  })
})
