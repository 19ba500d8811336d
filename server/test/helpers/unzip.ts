import { inflateRawSync } from 'node:zlib'

/** Reads the entries of a ZIP written by src/modules/assets/zip.ts (local headers in order). */
export function unzip(buf: Buffer): Record<string, string> {
  const out: Record<string, string> = {}
  let at = 0
  while (buf.readUInt32LE(at) === 0x04034b50) {
    const size = buf.readUInt32LE(at + 18)
    const nameLength = buf.readUInt16LE(at + 26)
    const name = buf.subarray(at + 30, at + 30 + nameLength).toString()
    const data = buf.subarray(at + 30 + nameLength, at + 30 + nameLength + size)
    out[name] = inflateRawSync(data).toString()
    at += 30 + nameLength + size
  }
  return out
}
