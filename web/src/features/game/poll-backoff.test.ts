import { describe, expect, it } from 'vitest'
import { backoffSchedule, pollUntil } from './poll-backoff'

describe(backoffSchedule, () => {
  it('starts at 300 ms and grows to 2 s', () => {
    const sut = backoffSchedule()
    expect(sut.slice(0, 6)).toEqual([300, 450, 675, 1013, 1520, 2000])
    expect(Math.max(...sut)).toBe(2000)
  })

  it('gives up after about a minute', () => {
    const total = backoffSchedule().reduce((a, b) => a + b, 0)
    expect(total).toBeLessThanOrEqual(60_000)
    expect(total).toBeGreaterThan(58_000)
  })

  it('never waits less than before', () => {
    const sut = backoffSchedule({ first: 100, factor: 2, max: 1000, budget: 10_000 })
    for (let i = 1; i < sut.length; i++) expect(sut[i]).toBeGreaterThanOrEqual(sut[i - 1]!)
  })
})

describe(pollUntil, () => {
  const noWait = async () => {}

  it('returns the first answer that is done', async () => {
    const answers = ['FlagSubmitted', 'FlagSubmitted', 'Accepted']
    let calls = 0
    const sut = await pollUntil(
      async () => answers[calls++]!,
      (a) => a !== 'FlagSubmitted',
      [1, 1, 1, 1],
      { wait: noWait },
    )
    expect(sut).toBe('Accepted')
    expect(calls).toBe(3)
  })

  it('gives up with undefined when the schedule runs out', async () => {
    let calls = 0
    const waits: number[] = []
    const sut = await pollUntil(
      async () => {
        calls++
        return 'FlagSubmitted'
      },
      (a) => a !== 'FlagSubmitted',
      [10, 20, 30],
      { wait: async (ms) => void waits.push(ms) },
    )
    expect(sut).toBeUndefined()
    expect(calls).toBe(3)
    expect(waits).toEqual([10, 20, 30])
  })
})
