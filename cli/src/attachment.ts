import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { type Zippable, zipSync } from 'fflate'
import type { AttachmentSpec } from './challenge-yml/spec.ts'

/** What the server should hold as the challenge attachment, down to the bytes' hash. */
export type ResolvedAttachment =
  | { type: 'None' }
  | { type: 'Remote'; url: string }
  | { type: 'Local'; hash: string; name: string; size: number; bytes: Uint8Array }

/** Fixed timestamp inside zips, so the same files always pack to the same bytes (and hash). */
const ZIP_TIME = new Date('1980-01-01T00:00:00Z')

/** Every file under `dir`, as [path inside the zip, absolute path], sorted. */
function walk(dir: string, prefix: string): [string, string][] {
  const out: [string, string][] = []
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name)
    const inZip = `${prefix}${name}`
    if (statSync(full).isDirectory()) out.push(...walk(full, `${inZip}/`))
    else out.push([inZip, full])
  }
  return out
}

/** Packs files and folders into one zip: a lone folder's contents at the top, otherwise each by name. */
export function pack(paths: string[]): Uint8Array {
  const files: Zippable = {}
  const lone = paths.length === 1 ? paths[0]! : null
  for (const path of paths) {
    const entries = statSync(path).isDirectory()
      ? walk(path, lone ? '' : `${basename(path)}/`)
      : ([[basename(path), path]] as [string, string][])
    for (const [inZip, full] of entries) files[inZip] = [readFileSync(full), { mtime: ZIP_TIME, level: 6 }]
  }
  return zipSync(files, { mtime: ZIP_TIME })
}

export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex')

/** Reads (and packs when asked) a handout, so it can be compared with the server by hash. */
export function resolveAttachment(spec: AttachmentSpec): ResolvedAttachment {
  if (spec.kind === 'none') return { type: 'None' }
  if (spec.kind === 'remote') return { type: 'Remote', url: spec.url }
  const bytes = spec.pack ? pack(spec.paths) : new Uint8Array(readFileSync(spec.paths[0]!))
  return { type: 'Local', hash: sha256(bytes), name: spec.name, size: bytes.byteLength, bytes }
}
