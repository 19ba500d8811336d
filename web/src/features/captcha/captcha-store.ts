/**
 * The answer a captcha field has produced, shared with the form that sends it. The field sets
 * it (or an error); the form waits for it on submit and renews it afterwards, because every
 * answer is good for one request only.
 */
export interface CaptchaStore {
  /** Increases on every renewal; fields restart when it changes. */
  generation(): number
  subscribe(listener: () => void): () => void
  /** The field found an answer; `onSpend` runs when a form takes it. */
  set(token: string, onSpend?: () => void): void
  /** The answer expired (e.g. Turnstile's timeout): wait for a new one. */
  clear(): void
  /** The field cannot produce an answer; waiting forms fail with `error`. */
  fail(error: unknown): void
  /** Resolves with the answer as soon as there is one, and marks it spent. */
  take(): Promise<string>
  /** Forgets the spent answer and asks the field for a new one. */
  renew(): void
}

export function createCaptchaStore(): CaptchaStore {
  let generation = 0
  let token: string | null = null
  let spend: (() => void) | undefined
  let waiters: { resolve: (token: string) => void; reject: (error: unknown) => void }[] = []
  const listeners = new Set<() => void>()

  const hand = (value: string) => {
    spend?.()
    spend = undefined
    return value
  }

  return {
    generation: () => generation,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    set(value, onSpend) {
      token = value
      spend = onSpend
      const pending = waiters
      waiters = []
      for (const waiter of pending) waiter.resolve(hand(value))
    },
    clear() {
      token = null
      spend = undefined
    },
    fail(error) {
      const pending = waiters
      waiters = []
      for (const waiter of pending) waiter.reject(error)
    },
    take() {
      if (token !== null) return Promise.resolve(hand(token))
      return new Promise((resolve, reject) => waiters.push({ resolve, reject }))
    },
    renew() {
      token = null
      spend = undefined
      generation++
      for (const listener of listeners) listener()
    },
  }
}
