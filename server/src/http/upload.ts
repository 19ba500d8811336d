import type { FastifyRequest } from 'fastify'
import { fail } from './errors.ts'

export interface Upload {
  bytes: Buffer
  filename: string
  mimetype: string
}

/** Reads the one file of a multipart request from `field`, refusing empty and over-sized files. */
export async function readUpload(request: FastifyRequest, maxBytes: number, field = 'file'): Promise<Upload> {
  if (!request.isMultipart()) throw fail('File_Missing')
  const part = await request.file({ limits: { fileSize: maxBytes, files: 1, fields: 16, fieldSize: 4096 } })
  if (!part || part.fieldname !== field) throw fail('File_Missing')
  let bytes: Buffer
  try {
    bytes = await part.toBuffer()
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw fail('File_SizeTooLarge')
    throw err
  }
  if (bytes.length === 0) throw fail('File_SizeZero')
  return { bytes, filename: part.filename, mimetype: part.mimetype }
}
