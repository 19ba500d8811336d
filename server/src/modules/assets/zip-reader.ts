import { type FileHandle, open } from 'node:fs/promises'
import { Readable, Transform } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createInflateRaw } from 'node:zlib'
import { fail } from '../../http/errors.ts'

/** What an uploaded archive may be; every limit is checked before anything is unpacked. */
export interface ArchiveLimits {
  /** The archive itself (the upload). */
  maxArchiveBytes: number
  /** How many entries it may hold (a zip of a million empty files is a denial of service too). */
  maxEntries: number
  /** Everything unpacked together: a zip bomb is refused by its declared sizes, before inflating. */
  maxUnpackedBytes: number
  /** The manifest, the one entry read into memory (with its parsed form). */
  maxManifestBytes: number
}

const MiB = 1024 * 1024
/** Largest end-of-directory record: 22 bytes and a comment of at most 64 KiB. */
const EOCD_MAX = 22 + 0xffff
/** How much is read from the file at a time. */
const CHUNK = 64 * 1024

interface Entry {
  name: string
  method: number
  compressedSize: number
  size: number
  headerOffset: number
}

const damaged = () => fail('Transfer_NotAnArchive')

/**
 * A ZIP archive on disk, read entry by entry: only its central directory is held in memory, and
 * an entry's bytes are inflated as a stream, so nothing of the archive sits in memory whole.
 * Every limit is checked from the directory before anything is inflated; an entry that inflates
 * to more or less than its declared size is refused as damaged. Entry names are only looked up,
 * never used as paths.
 */
export interface ZipReader {
  /** Entry names and their declared (checked on reading) sizes. */
  readonly sizes: ReadonlyMap<string, number>
  /** The size of the archive file. */
  readonly archiveSize: number
  /** An entry's bytes in memory; refused (as `tooLarge`) when it is declared larger than `max`. */
  read(name: string, max: number, tooLarge: () => Error): Promise<Buffer>
  /** An entry's bytes as a stream (errors with a 4xx when the entry is damaged). */
  stream(name: string): Readable
  close(): Promise<void>
}

export async function openZip(file: string, limits: ArchiveLimits): Promise<ZipReader> {
  const fh = await open(file, 'r')
  try {
    const { size: archiveSize } = await fh.stat()
    if (archiveSize > limits.maxArchiveBytes)
      throw fail('Transfer_ArchiveTooLarge', { params: [Math.floor(limits.maxArchiveBytes / MiB)] })
    const entries = await readDirectory(fh, archiveSize, limits)
    const sizes = new Map([...entries].map(([name, e]) => [name, e.size]))
    return {
      sizes,
      archiveSize,
      async read(name, max, tooLarge) {
        const entry = entries.get(name)
        if (!entry) throw damaged()
        if (entry.size > max) throw tooLarge()
        const chunks: Buffer[] = []
        for await (const chunk of entryStream(fh, entry, archiveSize)) chunks.push(chunk as Buffer)
        return Buffer.concat(chunks)
      },
      stream(name) {
        const entry = entries.get(name)
        if (!entry) throw damaged()
        return entryStream(fh, entry, archiveSize)
      },
      close: () => fh.close(),
    }
  } catch (err) {
    await fh.close()
    throw err
  }
}

async function readAt(fh: FileHandle, position: number, length: number): Promise<Buffer> {
  const buf = Buffer.alloc(length)
  const { bytesRead } = await fh.read(buf, 0, length, position)
  if (bytesRead !== length) throw damaged()
  return buf
}

async function readDirectory(fh: FileHandle, archiveSize: number, limits: ArchiveLimits) {
  if (archiveSize < 22) throw damaged()
  const tailStart = Math.max(0, archiveSize - EOCD_MAX)
  const tail = await readAt(fh, tailStart, archiveSize - tailStart)
  let at = -1
  for (let i = tail.length - 22; i >= 0; i--) {
    if (tail.readUInt32LE(i) === 0x06054b50 && i + 22 + tail.readUInt16LE(i + 20) === tail.length) {
      at = i
      break
    }
  }
  if (at < 0) throw damaged()
  const count = tail.readUInt16LE(at + 10)
  const dirSize = tail.readUInt32LE(at + 12)
  const dirOffset = tail.readUInt32LE(at + 16)
  // Multi-disk and ZIP64 archives are not what the exporter writes (nor needed under the limits).
  if (tail.readUInt16LE(at + 4) !== 0 || count !== tail.readUInt16LE(at + 8)) throw damaged()
  if (count === 0xffff || dirSize === 0xffffffff || dirOffset === 0xffffffff) throw damaged()
  if (count > limits.maxEntries) throw fail('Transfer_TooManyEntries', { params: [limits.maxEntries] })
  if (dirOffset + dirSize > tailStart + at) throw damaged()
  const dir = await readAt(fh, dirOffset, dirSize)
  const entries = new Map<string, Entry>()
  let unpacked = 0
  let p = 0
  for (let n = 0; n < count; n++) {
    if (p + 46 > dir.length || dir.readUInt32LE(p) !== 0x02014b50) throw damaged()
    const flags = dir.readUInt16LE(p + 8)
    const method = dir.readUInt16LE(p + 10)
    const compressedSize = dir.readUInt32LE(p + 20)
    const size = dir.readUInt32LE(p + 24)
    const nameLength = dir.readUInt16LE(p + 28)
    const extraLength = dir.readUInt16LE(p + 30)
    const commentLength = dir.readUInt16LE(p + 32)
    const headerOffset = dir.readUInt32LE(p + 42)
    if (p + 46 + nameLength > dir.length) throw damaged()
    const name = dir.subarray(p + 46, p + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1')
    p += 46 + nameLength + extraLength + commentLength
    // Encrypted entries, other compression methods and ZIP64 sizes are refused as foreign.
    if (flags & 1 || (method !== 0 && method !== 8)) throw damaged()
    if (compressedSize === 0xffffffff || size === 0xffffffff || headerOffset === 0xffffffff) throw damaged()
    if (method === 0 && compressedSize !== size) throw damaged()
    unpacked += size
    if (unpacked > limits.maxUnpackedBytes)
      throw fail('Transfer_UnpackedTooLarge', { params: [Math.floor(limits.maxUnpackedBytes / MiB)] })
    if (entries.has(name)) throw damaged()
    entries.set(name, { name, method, compressedSize, size, headerOffset })
  }
  return entries
}

/** The entry's compressed bytes, read from the file a chunk at a time. */
function rawBytes(fh: FileHandle, start: number, length: number): Readable {
  let done = 0
  return new Readable({
    async read() {
      try {
        if (done >= length) return void this.push(null)
        const n = Math.min(CHUNK, length - done)
        const buf = Buffer.alloc(n)
        const { bytesRead } = await fh.read(buf, 0, n, start + done)
        if (bytesRead !== n) throw damaged()
        done += n
        this.push(buf)
      } catch (err) {
        this.destroy(err as Error)
      }
    },
  })
}

/** Passes bytes on while counting them; fails past `size`, or short of it at the end. */
function exactly(size: number): Transform {
  let seen = 0
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length
      if (seen > size) return done(damaged())
      done(null, chunk)
    },
    flush(done) {
      done(seen === size ? null : damaged())
    },
  })
}

function entryStream(fh: FileHandle, entry: Entry, archiveSize: number): Readable {
  const out = exactly(entry.size)
  ;(async () => {
    const header = await readAt(fh, entry.headerOffset, 30)
    if (header.readUInt32LE(0) !== 0x04034b50) throw damaged()
    const start = entry.headerOffset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28)
    if (start + entry.compressedSize > archiveSize) throw damaged()
    const raw = rawBytes(fh, start, entry.compressedSize)
    if (entry.method === 0) await pipeline(raw, out)
    else await pipeline(raw, createInflateRaw(), out)
  })().catch((err: unknown) => {
    // zlib's own errors (bad deflate data) mean a damaged archive too.
    const known = (err as { key?: string }).key?.startsWith('Transfer_')
    out.destroy(known ? (err as Error) : damaged())
  })
  return out
}
