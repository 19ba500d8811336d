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
