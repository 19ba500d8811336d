import type { FastifyRequest } from 'fastify'
import { AppError, fail } from './errors.ts'

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
  return { bytes, filename: part.filename, mimetype: part.mimetype }
}

/** Reads every file of a multipart request sent in `field` (empty files are skipped). */
export async function readUploads(
  request: FastifyRequest,
  maxBytes: number,
  field: string,
  maxFiles = 20,
): Promise<Upload[]> {
  if (!request.isMultipart()) throw fail('File_Missing')
  const out: Upload[] = []
  try {
    for await (const part of request.files({
      limits: { fileSize: maxBytes, files: maxFiles, fields: 16, fieldSize: 4096 },
    })) {
      const bytes = await part.toBuffer()
      if (part.fieldname === field && bytes.length > 0)
        out.push({ bytes, filename: part.filename, mimetype: part.mimetype })
    }
  } catch (err) {
    if (err instanceof AppError) throw err
    const code = (err as { code?: string }).code
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw fail('File_SizeTooLarge')
    if (code === 'FST_FILES_LIMIT') throw fail('Request_TooLarge')
    throw fail('File_Malformed')
  }
  if (!out.length) throw fail('File_Missing')
  return out
}
