import { describe, expect, it } from 'vitest'
import { afterReconnect, epochOf, parseRecords, prependRows, reconnectDelay } from './use-hub'

describe('hub client helpers', () => {
  it('splits a message into its records', () => {
    expect(parseRecords('{}\x1e{"type":1,"target":"ReceivedLog","arguments":[{"msg":"x"}]}\x1e')).toEqual([
      {},
      { type: 1, target: 'ReceivedLog', arguments: [{ msg: 'x' }] },
    ])
    expect(() => parseRecords('{broken\x1e')).toThrow()
  })

  it('backs off from 1 s doubling to 30 s, with jitter between half and all of it', () => {
    expect(reconnectDelay(0, () => 1)).toBe(1000)
    expect(reconnectDelay(3, () => 1)).toBe(8000)
    expect(reconnectDelay(10, () => 1)).toBe(30_000)
    expect(reconnectDelay(10, () => 0)).toBe(15_000)
  })

  it('puts pushed rows newest first on top of a page that keeps its length', () => {
    expect(prependRows([3, 2, 1], [4, 5], 4)).toEqual([5, 4, 3, 2])
    expect(prependRows(undefined, [1], 4)).toEqual([1])
  })

  it('reads hub dates as epoch milliseconds', () => {
    expect(epochOf('2025-03-01T12:00:00.123+00:00')).toBe(Date.UTC(2025, 2, 1, 12, 0, 0, 123))
    expect(epochOf(5)).toBe(5)
  })

  it('reads again when the hub is live after a drop, not on the first connection', () => {
    let seen = false
    const steps: boolean[] = []
    for (const state of ['connecting', 'live', 'reconnecting', 'live', 'reconnecting', 'off'] as const) {
      const [next, again] = afterReconnect(seen, state)
      seen = next
      steps.push(again)
    }
    expect(steps).toEqual([false, false, false, true, false, false])
  })
})
