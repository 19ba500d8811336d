import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import { eq, sql } from 'drizzle-orm'
import type { Db } from '../../db/index.ts'
import { files } from '../../db/schema.ts'
import type { BlobStorage } from '../../infra/storage/index.ts'

export type FileRow = typeof files.$inferSelect

/**
 * Content-addressed, reference-counted files (api-contract §1.13). Storing the same bytes again
 * adds a reference and renames the record; releasing drops one, and the last removes the bytes.
 */
export function createBlobService(deps: { db: Db; storage: BlobStorage }) {
  const { db, storage } = deps

  /** Records stored bytes (or one more reference to them) under `name`. */
  async function record(hash: string, name: string, size: number): Promise<FileRow> {
    const now = new Date()
    const [row] = await db
      .insert(files)
      .values({ hash, name, fileSize: size, uploadTimeUtc: now })
      .onConflictDoUpdate({
        target: files.hash,
        set: { name, uploadTimeUtc: now, referenceCount: sql`${files.referenceCount} + 1` },
      })
      .returning()
    return row!
  }

  return {
    async store(bytes: Buffer, name: string): Promise<FileRow> {
      const hash = createHash('sha256').update(bytes).digest('hex')
      await storage.put(hash, bytes)
      return record(hash, name, bytes.length)
    },

    /**
     * Streams bytes into storage, hashing them on the way (large uploads never sit in memory).
     * Nothing is recorded until `keep`; `discard` drops the bytes (e.g. an empty file).
     */
    async stage(source: Readable) {
      const staged = await storage.stage(source)
      return {
        hash: staged.hash,
        size: staged.size,
        async keep(name: string): Promise<FileRow> {
          await staged.commit()
          return record(staged.hash, name, staged.size)
        },
        discard: () => staged.discard(),
      }
    },

    async find(hash: string): Promise<FileRow | undefined> {
      const [row] = await db.select().from(files).where(eq(files.hash, hash))
      return row
    },

    /** Adds a reference to a stored file; false when there is no such file. */
    async acquire(hash: string): Promise<boolean> {
      const rows = await db
        .update(files)
        .set({ referenceCount: sql`${files.referenceCount} + 1` })
        .where(eq(files.hash, hash))
        .returning({ id: files.id })
      return rows.length > 0
    },

    /** Drops one reference; the bytes go with the last one. Unknown hashes are ignored. */
    async release(hash: string | null | undefined): Promise<void> {
      if (!hash) return
      const [row] = await db
        .update(files)
        .set({ referenceCount: sql`${files.referenceCount} - 1` })
        .where(eq(files.hash, hash))
        .returning()
      if (row && row.referenceCount < 1) {
        await db.delete(files).where(eq(files.id, row.id))
        await storage.remove(hash)
      }
    },

    open: (hash: string) => storage.open(hash),
  }
}
export type BlobService = ReturnType<typeof createBlobService>
