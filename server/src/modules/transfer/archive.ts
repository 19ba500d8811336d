import { PassThrough, type Readable } from 'node:stream'
import { unzipSync, Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import { fail } from '../../http/errors.ts'

/** What an uploaded archive may be; every limit is checked before anything is unpacked. */
export interface ArchiveLimits {
  /** The archive itself (the upload). */
  maxArchiveBytes: number
  /** How many entries it may hold (a zip of a million empty files is a denial of service too). */
  maxEntries: number
  /** Everything unpacked together: a zip bomb is refused by its declared sizes, before inflating. */
  maxUnpackedBytes: number
}

export const defaultLimits: ArchiveLimits = {
  maxArchiveBytes: 256 * 1024 * 1024,
  maxEntries: 20_000,
  maxUnpackedBytes: 1024 * 1024 * 1024,
}

const MiB = 1024 * 1024

export interface ArchiveEntry {
  name: string
  /** The entry's bytes, or a stream of them (opened only when its turn comes). */
  data: Buffer | (() => Promise<Readable>)
  /** Already-compressed content (images, zips) is stored, not deflated again. */
  store?: boolean
}

/**
 * Writes a ZIP as a stream, entry by entry: stored files are read from storage one at a time, so
 * the archive never has to sit in memory whole on this side.
 */
export function writeArchive(entries: AsyncIterable<ArchiveEntry> | Iterable<ArchiveEntry>): Readable {
  const out = new PassThrough()
  const zip = new Zip((err, chunk, final) => {
    if (err) return void out.destroy(err)
    out.write(chunk)
    if (final) out.end()
  })
  ;(async () => {
    for await (const entry of entries) {
      const file = entry.store ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level: 6 })
      zip.add(file)
      if (Buffer.isBuffer(entry.data)) {
        file.push(entry.data, true)
        continue
      }
      for await (const chunk of await entry.data()) file.push(chunk as Uint8Array)
      file.push(new Uint8Array(0), true)
    }
    zip.end()
  })().catch((err) => {
    zip.terminate()
    out.destroy(err)
  })
  return out
}

/**
 * Unpacks an uploaded archive in memory, refusing it (4xx) when it is not a ZIP, is cut short,
 * or would exceed the limits. Entry names are only ever looked up, never used as paths.
 */
export function readArchive(bytes: Uint8Array, limits: ArchiveLimits): Map<string, Buffer> {
  if (bytes.length > limits.maxArchiveBytes)
    throw fail('Transfer_ArchiveTooLarge', { params: [Math.floor(limits.maxArchiveBytes / MiB)] })
  let entries = 0
  let unpacked = 0
  const declared = new Map<string, number>()
  let files: Record<string, Uint8Array>
  try {
    files = unzipSync(bytes, {
      filter(file) {
        if (++entries > limits.maxEntries)
          throw fail('Transfer_TooManyEntries', { params: [limits.maxEntries] })
        unpacked += file.originalSize
        if (unpacked > limits.maxUnpackedBytes)
          throw fail('Transfer_UnpackedTooLarge', { params: [Math.floor(limits.maxUnpackedBytes / MiB)] })
        if (declared.has(file.name)) throw fail('Transfer_NotAnArchive')
        declared.set(file.name, file.originalSize)
        return true
      },
    })
  } catch (err) {
    if ((err as { key?: string }).key?.startsWith('Transfer_')) throw err
    // fflate's own errors: no end-of-archive record (cut short, not a zip), bad deflate data.
    throw fail('Transfer_NotAnArchive')
  }
  const out = new Map<string, Buffer>()
  for (const [name, data] of Object.entries(files)) {
    // The inflater writes into a buffer of the declared size: a lying header shows here (or as a
    // hash mismatch when the lie is in the content).
    if (data.length !== declared.get(name)) throw fail('Transfer_NotAnArchive')
    out.set(name, Buffer.from(data.buffer, data.byteOffset, data.length))
  }
  return out
}
