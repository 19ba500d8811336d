import { PassThrough, type Readable } from 'node:stream'
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate'
import type { ArchiveLimits } from '../assets/zip-reader.ts'

export const defaultLimits: ArchiveLimits = {
  maxArchiveBytes: 256 * 1024 * 1024,
  maxEntries: 20_000,
  maxUnpackedBytes: 1024 * 1024 * 1024,
  maxManifestBytes: 32 * 1024 * 1024,
}

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
