import { describe, expect, it } from 'vitest'
import { isPseudo } from './languages'
import { elongate, pseudoMessages } from './pseudo'

describe(elongate, () => {
  it('accents letters, keeps placeholders and grows the text by about 40%', () => {
    const text = 'Join {{title}} now'
    const long = elongate(text)
    expect(long).toContain('{{title}}')
    expect(long).toMatch(/^⟦Ĵöíñ \{\{title\}\} ñöŵ ·+⟧$/)
    expect(long.length).toBeGreaterThanOrEqual(Math.ceil(text.length * 1.4))
  })
})

describe(pseudoMessages, () => {
  it('turns every string of an area, lists included; ar-XB keeps the English text', () => {
    const en = { group: { a: 'Save', list: ['x y'] } }
    const xa = pseudoMessages('en-XA', en) as { group: { a: string; list: string[] } }
    expect(xa.group.a.startsWith('⟦Šàṽé')).toBe(true)
    expect(xa.group.list[0]?.startsWith('⟦ẋ ý')).toBe(true)
    expect(pseudoMessages('ar-XB', en)).toBe(en)
  })

  it('knows only the two pseudo codes', () => {
    expect(isPseudo('en-XA')).toBe(true)
    expect(isPseudo('ar-XB')).toBe(true)
    expect(isPseudo('en-US')).toBe(false)
  })
})
