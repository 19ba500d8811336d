import { describe, expect, it } from 'vitest'
import { canEnable, challengeReadiness } from './readiness'

const base = { content: 'Find it', flags: [], containerImage: null, attachment: null }
const flag = { id: 1, flag: 'flag{x}', attachment: null }

describe('challenge readiness', () => {
  it('asks a static attachment challenge for flags, and suggests text and a file', () => {
    const items = challengeReadiness({ ...base, type: 'StaticAttachment', content: ' ' })
    expect(items).toEqual([
      { key: 'content', done: false, required: false },
      { key: 'flags', done: false, required: true },
      { key: 'attachment', done: false, required: false },
    ])
    expect(canEnable(items)).toBe(false)
    expect(canEnable(challengeReadiness({ ...base, type: 'StaticAttachment', flags: [flag] }))).toBe(true)
  })

  it('asks container challenges for an image; a dynamic one needs no flags', () => {
    const dynamic = challengeReadiness({ ...base, type: 'DynamicContainer' })
    expect(dynamic.map((i) => i.key)).toEqual(['content', 'image'])
    expect(canEnable(dynamic)).toBe(false)
    expect(
      canEnable(challengeReadiness({ ...base, type: 'DynamicContainer', containerImage: 'web:1' })),
    ).toBe(true)
    const fixed = challengeReadiness({ ...base, type: 'StaticContainer', containerImage: '  ' })
    expect(fixed.filter((i) => !i.done).map((i) => i.key)).toEqual(['flags', 'image'])
  })

  it('asks dynamic attachments for their flags (each carries its file)', () => {
    expect(challengeReadiness({ ...base, type: 'DynamicAttachment' }).map((i) => i.key)).toEqual([
      'content',
      'flags',
    ])
  })
})
