import type { Readable } from 'node:stream'

/** Where blob bytes live, addressed by their SHA-256. Local disk now; object storage later. */
export interface BlobStorage {
  put(hash: string, bytes: Buffer): Promise<void>
  /**
   * Writes a stream aside while hashing it, so large uploads never sit in memory. Nothing is
   * visible under the hash until `commit`; `discard` drops the bytes. Fails as the source fails.
   */
  stage(source: Readable): Promise<StagedBlob>
  /** A stream of the blob, or null when it is not stored. */
  open(hash: string): Promise<Readable | null>
  remove(hash: string): Promise<void>
}

export interface StagedBlob {
  hash: string
  size: number
  commit(): Promise<void>
  discard(): Promise<void>
}
