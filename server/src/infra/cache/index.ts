/**
 * A shared key-value store with expiry: captcha challenges, short-lived lookups.
 * In-process by default; Redis when several replicas must share it.
 */
export interface Cache {
  get(key: string): Promise<string | null>
  set(key: string, value: string, ttlMs: number): Promise<void>
  /** Removes the key; true only for the one caller that actually removed it (single-use tokens). */
  take(key: string): Promise<boolean>
  close(): Promise<void>
}
