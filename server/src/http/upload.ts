import { finished, PassThrough, type Readable } from 'node:stream'
import type { FastifyRequest } from 'fastify'
import { AppError, fail } from './errors.ts'
import { findUnstorable } from './validation.ts'

/** A file name the database can store, or a 400 (as for any JSON text: validation.ts). */
function storableName(name: string): string {
  const problem = findUnstorable({ filename: name })
  if (problem) throw new AppError('Model_ValidationFailed', 400, problem)
  return name
}

export interface Upload {
  bytes: Buffer
  filename: string
  mimetype: string
}

/** Reads the one file of a multipart request from `field`, refusing empty and over-sized files. */
export async function readUpload(request: FastifyRequest, maxBytes: number, field = 'file'): Promise<Upload> {
  if (!request.isMultipart()) throw fail('File_Missing')
  let part: Awaited<ReturnType<FastifyRequest['file']>>
  let bytes: Buffer
  try {
    part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 16, fieldSize: 4096 } })
    if (!part || part.fieldname !== field) throw fail('File_Missing')
    bytes = await part.toBuffer()
  } catch (err) {
    if (err instanceof AppError) throw err
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('File_SizeTooLarge')
    // Anything else the multipart parser raises means the client sent a broken form.
    throw fail('File_Malformed')
  }
  if (bytes.length === 0) throw fail('File_SizeZero')
  return { bytes, filename: storableName(part.filename), mimetype: part.mimetype }
}

export interface StreamedUpload {
  /** The file's bytes; fails with `File_SizeTooLarge` past the limit, `File_Malformed` on a broken form. */
  file: Readable
  filename: string
  mimetype: string
}

/**
 * Hands every file of a multipart request sent in `field` to `take` as a stream, one at a time,
 * so a large file never sits in memory (files in other fields are read and dropped). Returns what
 * `take` returned, leaving out nulls (files it skipped, e.g. empty ones); none at all is
 * `File_Missing`. Errors `take` throws pass through unchanged.
 */
export async function streamUploads<T>(
  request: FastifyRequest,
  opts: { field: string; maxBytes: number; maxFiles?: number },
  take: (upload: StreamedUpload) => Promise<T | null>,
): Promise<T[]> {
  if (!request.isMultipart()) throw fail('File_Missing')
  const out: T[] = []
  let taken: { error: unknown } | null = null
  try {
    for await (const part of request.files({
      limits: { fileSize: opts.maxBytes, files: opts.maxFiles ?? 20, fields: 16, fieldSize: 4096 },
    })) {
      if (part.fieldname !== opts.field) {
        part.file.resume()
        continue
      }
      // Errors reach `take` through its own pipeline (even when it starts reading late); this
      // listener only keeps one raised before then from being an uncaught 'error' event.
      const file = new PassThrough().on('error', () => {})
      // The parser cuts an over-long file short and ends it quietly; a consumer must see that as
      // a failure instead, or a truncated file would be stored as if complete.
      const onLimit = () => file.destroy(fail('File_SizeTooLarge'))
      part.file.on('limit', onLimit).pipe(file)
      // A broken form may close the part without ending it (and before we got here): `finished`
      // sees that too, where a pipe alone would leave `take` waiting forever.
      const stopWatching = finished(part.file, (err) => {
        if (err) file.destroy(fail('File_Malformed'))
      })
      try {
        const result = await take({ file, filename: storableName(part.filename), mimetype: part.mimetype })
        if (result !== null) out.push(result)
      } catch (error) {
        taken = { error }
        throw error
      } finally {
        // Whatever `take` left unread is drained, so the parser moves on to the next part.
        stopWatching()
        part.file.off('limit', onLimit).unpipe(file)
        part.file.resume()
      }
    }
  } catch (err) {
    if (taken?.error === err || err instanceof AppError) throw err
    const code = (err as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fail('File_SizeTooLarge')
    if (code === 'FST_FILES_LIMIT') throw fail('Request_TooLarge')
    throw fail('File_Malformed')
  }
  if (!out.length) throw fail('File_Missing')
  return out
}
