import { statSync } from 'node:fs'
import { basename, isAbsolute, relative, resolve } from 'node:path'
import type { Path, Source } from './source.ts'
import { type AttachmentSpec, CATEGORIES, type ChallengeCategory } from './spec.ts'

/** Common spellings of Pennant's categories (matched case-insensitively, spaces/dashes/underscores ignored). */
const ALIASES: Record<string, ChallengeCategory> = {
  miscellaneous: 'Misc',
  cryptography: 'Crypto',
  pwnable: 'Pwn',
  binary: 'Pwn',
  binaryexploitation: 'Pwn',
  webexploitation: 'Web',
  rev: 'Reverse',
  re: 'Reverse',
  reversing: 'Reverse',
  reverseengineering: 'Reverse',
  forensic: 'Forensics',
  hw: 'Hardware',
  android: 'Mobile',
  programming: 'PPC',
  coding: 'PPC',
  ml: 'AI',
  machinelearning: 'AI',
}

/** Pennant's category for a free-text one; null when nothing matches. */
export function matchCategory(text: string): ChallengeCategory | null {
  const norm = text.toLowerCase().replace(/[\s_-]+/g, '')
  return CATEGORIES.find((c) => c.toLowerCase() === norm) ?? ALIASES[norm] ?? null
}

/** Reads a category, warning (and using Misc) when Pennant has no such category. */
export function readCategory(src: Source, path: Path | null, text: string): ChallengeCategory {
  const found = matchCategory(text)
  if (found) return found
  const where = path ?? []
  src.warn(
    path ? where : ['category'],
    `"${text}" is not one of Pennant's categories (${CATEGORIES.join(', ')}); using Misc`,
  )
  return 'Misc'
}

const isUrl = (s: string) => /^https?:\/\/\S+$/.test(s)

/**
 * The handout from a list of entries, each a file, a folder or a URL, relative to `dir`.
 * One file is handed out as is; a folder or several files become one zip; a URL is a Remote
 * attachment and must be alone (Pennant keeps one attachment per challenge).
 */
export function readHandout(
  src: Source,
  dir: string,
  entries: { path: Path; value: string }[],
): AttachmentSpec {
  if (entries.length === 0) return { kind: 'none' }
  const urls = entries.filter((e) => isUrl(e.value))
  if (urls.length > 0) {
    if (entries.length > 1) {
      src.error(
        urls[0]!.path,
        'a URL handout must be the only one: Pennant keeps one attachment per challenge',
      )
      return { kind: 'none' }
    }
    return { kind: 'remote', url: urls[0]!.value }
  }
  const paths: string[] = []
  let folder = false
  for (const e of entries) {
    const full = resolve(dir, e.value)
    const rel = relative(dir, full)
    if (isAbsolute(e.value) || rel.startsWith('..')) {
      src.error(e.path, `"${e.value}" must stay inside the challenge folder`)
      continue
    }
    const kind = statKind(full)
    if (!kind) {
      src.error(e.path, `"${e.value}" does not exist`)
      continue
    }
    folder ||= kind === 'dir'
    paths.push(full)
  }
  if (paths.length === 0) return { kind: 'none' }
  if (paths.length === 1 && !folder) return { kind: 'local', paths, name: basename(paths[0]!), pack: false }
  const name = paths.length === 1 ? `${basename(paths[0]!)}.zip` : 'attachment.zip'
  return { kind: 'local', paths, name, pack: true }
}

function statKind(path: string): 'file' | 'dir' | null {
  try {
    const s = statSync(path)
    return s.isDirectory() ? 'dir' : s.isFile() ? 'file' : null
  } catch {
    return null
  }
}

/** Text with a gzcli/ctfcli template placeholder (`{{.slug}}`, `{{ cookiecutter.name }}`). */
export const hasPlaceholder = (s: string) => /\{\{.*?\}\}/.test(s)
