import { lstatSync, readdirSync, readFileSync, readlinkSync } from 'node:fs'
import { join } from 'node:path'

/**
 * A folder as a tar archive (POSIX ustar), for a Docker build context: the engine reads tar and
 * nothing else. Entries are sorted and dated 0 so the same folder gives the same bytes (and the
 * engine's build cache hits). Files, folders and symbolic links; `.git` is left out.
 */
export function tarFolder(root: string): Buffer {
  const blocks: Buffer[] = []
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir).sort()) {
      if (name === '.git') continue
      const full = join(dir, name)
      const rel = prefix + name
      const st = lstatSync(full)
      if (st.isSymbolicLink()) blocks.push(header(rel, '2', 0o777, 0, readlinkSync(full)))
      else if (st.isDirectory()) {
        blocks.push(header(`${rel}/`, '5', st.mode & 0o7777, 0))
        walk(full, `${rel}/`)
      } else if (st.isFile()) {
        const bytes = readFileSync(full)
        blocks.push(header(rel, '0', st.mode & 0o7777, bytes.length), bytes, Buffer.alloc(pad(bytes.length)))
      }
    }
  }
  walk(root, '')
  blocks.push(Buffer.alloc(1024)) // two empty blocks end the archive
  return Buffer.concat(blocks)
}

const pad = (n: number) => (512 - (n % 512)) % 512

function header(path: string, type: string, mode: number, size: number, link = ''): Buffer {
  const h = Buffer.alloc(512)
  let name = path
  let prefix = ''
  if (Buffer.byteLength(name) > 100) {
    // ustar splits a long path at a slash: up to 155 bytes of folders, then up to 100 of name.
    const cut = path.lastIndexOf('/', path.endsWith('/') ? path.length - 2 : path.length - 1)
    prefix = path.slice(0, cut)
    name = path.slice(cut + 1)
    if (cut < 0 || Buffer.byteLength(prefix) > 155 || Buffer.byteLength(name) > 100)
      throw new Error(`${path}: the path is too long for a build context (tar keeps 255 bytes)`)
  }
  if (Buffer.byteLength(link) > 100) throw new Error(`${path}: the link target is too long for tar`)
  const octal = (n: number, width: number) => `${n.toString(8).padStart(width - 1, '0')}\0`
  h.write(name, 0, 100)
  h.write(octal(mode, 8), 100)
  h.write(octal(0, 8), 108)
  h.write(octal(0, 8), 116)
  h.write(octal(size, 12), 124)
  h.write(octal(0, 12), 136)
  h.write('        ', 148) // the checksum counts its own field as spaces
  h.write(type, 156)
  h.write(link, 157, 100)
  h.write('ustar\0', 257)
  h.write('00', 263)
  h.write(prefix, 345, 155)
  let sum = 0
  for (const b of h) sum += b
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148)
  return h
}
