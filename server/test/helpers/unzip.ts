import { strFromU8, unzipSync } from 'fflate'

/** The entries of a ZIP as text, by name. */
export function unzip(buf: Buffer): Record<string, string> {
  const files = unzipSync(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength))
  return Object.fromEntries(Object.entries(files).map(([name, data]) => [name, strFromU8(data)]))
}
