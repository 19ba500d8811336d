import { describe, expect, it } from 'vitest'
import { countInWindow, type Policy, takeToken } from './index.ts'

const bucket = { kind: 'bucket', capacity: 3, refill: 2, periodMs: 1000 } as const satisfies Policy
const window = { kind: 'window', permits: 4, windowMs: 4000, segments: 4 } as const satisfies Policy

describe(takeToken, () => {
  it('allows the capacity at once, then refuses until the next refill', () => {
    let s: ReturnType<typeof takeToken>[0] | undefined
    const results: boolean[] = []
    for (let i = 0; i < 4; i++) {
      const [next, v] = takeToken(s, bucket, 100)
      s = next
      results.push(v.allowed)
    }
    expect(results).toEqual([true, true, true, false])
    const [, refused] = takeToken(s, bucket, 500)
    expect(refused).toEqual({ allowed: false, retryAfterMs: 600 })
    const [after, ok] = takeToken(s, bucket, 1100)
    expect(ok.allowed).toBe(true)
    expect(after.tokens).toBe(1)
  })

  it('never refills beyond capacity', () => {
    const [s] = takeToken(undefined, bucket, 0)
    const [after] = takeToken(s, bucket, 60_000)
    expect(after.tokens).toBe(bucket.capacity - 1)
  })
})

describe(countInWindow, () => {
  it('refuses the request past the permits and frees room as segments slide out', () => {
    let s: ReturnType<typeof countInWindow>[0] | undefined
    for (let t = 0; t < 4; t++) {
      const [next, v] = countInWindow(s, window, t * 1000)
      expect(v.allowed).toBe(true)
      s = next
    }
    const [held, refused] = countInWindow(s, window, 3500)
    expect(refused).toEqual({ allowed: false, retryAfterMs: 500 })
    const [, ok] = countInWindow(held, window, 4000)
    expect(ok.allowed).toBe(true)
  })
})
