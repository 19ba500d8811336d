import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { readChallengeYml } from './challenge-yml/read.ts'
import type { ChallengeSpec, Diagnostic } from './challenge-yml/spec.ts'

const FILE_NAMES = ['challenge.yml', 'challenge.yaml']
/** Folders never holding challenges. */
const SKIP = new Set(['node_modules', '.git'])

export interface TreeResult {
  specs: ChallengeSpec[]
  diagnostics: Diagnostic[]
  /** Each challenge's folder (absolute), by key. */
  dirs: Map<string, string>
}

/** The challenge file in `dir`, if any. */
function challengeFile(dir: string): string | null {
  for (const name of FILE_NAMES) if (existsSync(join(dir, name))) return join(dir, name)
  return null
}

/** Every folder under `root` (itself included) that holds a challenge file; no descent below one. */
export function findChallengeDirs(root: string): string[] {
  if (challengeFile(root)) return [root]
  const out: string[] = []
  const entries = readdirSync(root, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))
  for (const e of entries) {
    if (!e.isDirectory() || SKIP.has(e.name) || e.name.startsWith('.')) continue
    out.push(...findChallengeDirs(join(root, e.name)))
  }
  return out
}

/**
 * Reads a folder that is one challenge or a tree of them. Each challenge's key is its folder
 * path relative to `root` (so renaming a title updates the challenge rather than adding one);
 * a challenge at the root itself takes the root folder's name. The category a file does not
 * name comes from the parent folder (`<category>/<challenge>/challenge.yml`). Messages name files
 * relative to `base`.
 */
export function readTree(root: string, base = process.cwd()): TreeResult {
  const specs: ChallengeSpec[] = []
  const diagnostics: Diagnostic[] = []
  const dirs = new Map<string, string>()
  for (const dir of findChallengeDirs(root)) {
    const file = challengeFile(dir)!
    const rel = relative(root, dir).split(sep).join('/')
    const key = rel === '' ? basename(root) : rel
    const parent = basename(dirname(dir))
    const result = readChallengeYml(relative(base, file) || file, readFileSync(file, 'utf8'), {
      key,
      dir,
      folderCategory: parent || null,
    })
    diagnostics.push(...result.diagnostics)
    if (result.spec) {
      specs.push(result.spec)
      dirs.set(result.spec.key, dir)
    }
  }
  return { specs, diagnostics, dirs }
}
