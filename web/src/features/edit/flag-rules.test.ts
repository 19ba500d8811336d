import { describe, expect, it } from 'vitest'
import { flagMode, parseFlagList, SAMPLE_TEAM_HASH, templateAccepted, templateExamples } from './flag-rules'

const guid = () => '0f8fad5b-d9cb-469f-a165-70867728950e'
const first = () => 0

describe(parseFlagList, () => {
  it('takes one flag per line, trimmed, without blanks or repeats', () => {
    expect(parseFlagList(' flag{a}\n\nflag{b}\r\nflag{a}\n  ')).toEqual({
      flags: ['flag{a}', 'flag{b}'],
      tooLong: [],
    })
  })

  it('reports flags longer than the server accepts', () => {
    const long = `flag{${'x'.repeat(130)}}`
    expect(parseFlagList(`ok\n${long}`)).toEqual({ flags: ['ok'], tooLong: [long] })
  })
})

describe(templateExamples, () => {
  it('uses the sample team hash and the generator for GUIDs', () => {
    expect(templateExamples('flag{[TEAM_HASH]}', 1, first, guid)).toEqual([`flag{${SAMPLE_TEAM_HASH}}`])
    expect(templateExamples('ctf{[GUID]}', 1, first, guid)).toEqual([`ctf{${guid()}}`])
  })

  it('makes a random GUID flag from a blank template', () => {
    expect(templateExamples('  ', 2, first, guid)).toEqual([`flag{${guid()}}`, `flag{${guid()}}`])
  })

  it('leets the body after [CLEET] (decisions.md item 15)', () => {
    expect(templateExamples('[CLEET]flag{sos}', 1, (n) => n - 1, guid)).toEqual(['flag{$#$}'])
  })
})

describe(templateAccepted, () => {
  it('accepts blank, [GUID], [TEAM_HASH] or long enough leet, and refuses a trivial template', () => {
    expect(templateAccepted('')).toBe(true)
    expect(templateAccepted('flag{[TEAM_HASH]}')).toBe(true)
    expect(templateAccepted('flag{this_is_a_rather_long_sentence_to_leet}')).toBe(true)
    expect(templateAccepted('flag{short}')).toBe(false)
  })
})

describe(flagMode, () => {
  it('maps challenge types to how their flags are managed', () => {
    expect(flagMode('StaticAttachment')).toBe('static')
    expect(flagMode('StaticContainer')).toBe('static')
    expect(flagMode('DynamicAttachment')).toBe('dynamicAttachment')
    expect(flagMode('DynamicContainer')).toBe('template')
  })
})
