import type { Readable } from 'node:stream'

/** Where blob bytes live, addressed by their SHA-256. Local disk now; object storage later. */
export interface BlobStorage {
  put(hash: string, bytes: Buffer): Promise<void>
  /** A stream of the blob, or null when it is not stored. */
  open(hash: string): Promise<Readable | null>
  remove(hash: string): Promise<void>
}
