import { describe, expect, it } from 'vitest'
import { createMemoryBus } from './memory.ts'

describe('in-process bus', () => {
  it('delivers to every subscriber of the topic, and not after unsubscribing', () => {
    const bus = createMemoryBus()
    const got: string[] = []
    const off = bus.subscribe('board.changed', (m) => got.push(`a:${m.etag}`))
    bus.subscribe('board.changed', (m) => got.push(`b:${m.etag}`))
    bus.subscribe('log.record', () => got.push('log'))
    bus.publish('board.changed', { gameId: 1, etag: 'x' })
    off()
    bus.publish('board.changed', { gameId: 1, etag: 'y' })
    expect(got).toEqual(['a:x', 'b:x', 'b:y'])
  })

  it('keeps delivering when a subscriber throws, and reports it', () => {
    const errors: string[] = []
    const bus = createMemoryBus((err, topic) => errors.push(`${topic}: ${(err as Error).message}`))
    const got: number[] = []
    bus.subscribe('board.changed', () => {
      throw new Error('boom')
    })
    bus.subscribe('board.changed', (m) => got.push(m.gameId))
    expect(() => bus.publish('board.changed', { gameId: 7, etag: 'e' })).not.toThrow()
    expect(got).toEqual([7])
    expect(errors).toEqual(['board.changed: boom'])
  })
})
