import type { Readable } from 'node:stream'
import { PassThrough } from 'node:stream'
import { createGzip } from 'node:zlib'

/** One ustar header block for a regular file. */
function header(name: string, size: number, mtime: Date): Buffer {
  const block = Buffer.alloc(512, 0)
  const field = (value: string, offset: number, length: number) => block.write(value, offset, length, 'utf8')
  const octal = (value: number, length: number) => value.toString(8).padStart(length - 1, '0')
  let path = name
  let prefix = ''
  if (Buffer.byteLength(path) > 100) {
    const cut = path.lastIndexOf('/', 155)
    prefix = path.slice(0, cut)
    path = path.slice(cut + 1)
  }
  field(path.slice(0, 100), 0, 100)
  field(octal(0o644, 8), 100, 8)
  field(octal(0, 8), 108, 8)
  field(octal(0, 8), 116, 8)
  field(octal(size, 12), 124, 12)
  field(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 12)
  field('        ', 148, 8) // checksum placeholder: eight spaces
  field('0', 156, 1)
  field('ustar\u0000', 257, 6)
  field('00', 263, 2)
  field(prefix.slice(0, 155), 345, 155)
  let sum = 0
  for (const byte of block) sum += byte
  field(`${octal(sum, 7)}\u0000`, 148, 8)
  return block
}

export interface TarEntry {
  name: string
  size: number
  mtime: Date
  open(): Promise<Readable | null>
}

/** Streams a gzip-compressed tar of the entries (files that cannot be opened are skipped). */
export function tarGz(entries: TarEntry[]): Readable {
  const tar = new PassThrough()
  const out = tar.pipe(createGzip())
  void (async () => {
    try {
      for (const entry of entries) {
        const stream = await entry.open()
        if (!stream) continue
        tar.write(header(entry.name, entry.size, entry.mtime))
        for await (const chunk of stream) tar.write(chunk)
        const pad = (512 - (entry.size % 512)) % 512
        if (pad) tar.write(Buffer.alloc(pad))
      }
      tar.end(Buffer.alloc(1024))
    } catch (err) {
      tar.destroy(err as Error)
    }
  })()
  return out
}
