import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/index.ts'
import { attachments, files } from '../../db/schema.ts'
import { type FileTypeName, FileTypeValues, nameOf } from '../../http/enums.ts'
import { fail } from '../../http/errors.ts'
import type { BlobService } from '../assets/blobs.service.ts'

export interface AttachmentInput {
  attachmentType?: FileTypeName
  fileHash?: string | null
  remoteUrl?: string | null
}

/**
 * Creates the attachment an input describes, or null for type None. A local attachment holds a
 * reference to its file, so the file outlives the asset library entry it came from.
 */
export async function createAttachment(
  db: DbOrTx,
  blobs: BlobService,
  input: AttachmentInput,
): Promise<number | null> {
  const type = input.attachmentType ?? 'None'
  if (type === 'None') return null
  if (type === 'Remote') {
    if (!input.remoteUrl) throw fail('Challenge_AttachmentInvalid')
    const [row] = await db.insert(attachments).values({ type: 2, remoteUrl: input.remoteUrl }).returning()
    return row!.id
  }
  if (!input.fileHash) throw fail('Challenge_AttachmentInvalid')
  if (!(await blobs.acquire(input.fileHash))) throw fail('File_NotFound')
  const [row] = await db.insert(attachments).values({ type: 1, fileHash: input.fileHash }).returning()
  return row!.id
}

/** Deletes an attachment and lets go of its file. */
export async function removeAttachment(db: DbOrTx, blobs: BlobService, id: number | null): Promise<void> {
  if (id === null) return
  const [row] = await db.delete(attachments).where(eq(attachments.id, id)).returning()
  if (row?.fileHash) await blobs.release(row.fileHash)
}

/** The `Attachment` model, with a local file's URL and size. */
export async function presentAttachment(db: DbOrTx, id: number | null, downloadName?: string) {
  if (id === null) return null
  const [row] = await db
    .select({ a: attachments, name: files.name, size: files.fileSize })
    .from(attachments)
    .leftJoin(files, eq(files.hash, attachments.fileHash))
    .where(eq(attachments.id, id))
  if (!row) return null
  const { a } = row
  const type = nameOf(FileTypeValues, a.type)
  const url =
    type === 'Local'
      ? a.fileHash && row.name
        ? `/assets/${a.fileHash}/${encodeURIComponent(downloadName ?? row.name)}`
        : null
      : type === 'Remote'
        ? a.remoteUrl
        : null
  return { id: a.id, type, url, fileSize: type === 'Local' ? (row.size ?? null) : null }
}
