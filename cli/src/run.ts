import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Api } from './api.ts'
import { resolveAttachment } from './attachment.ts'
import type { Diagnostic } from './challenge-yml/spec.ts'
import { type DesiredChallenge, type Plan, plan } from './plan.ts'
import { applyPlan, type SyncResult } from './sync.ts'
import { tarFolder } from './tar.ts'
import { readTree } from './tree.ts'

export interface FolderRun {
  /** Every file's warnings and errors, sorted by file and line. */
  diagnostics: Diagnostic[]
  /** How many challenge files read cleanly. */
  read: number
  /** Null when a file had an error or there was no challenge file: the server was not asked. */
  plan: Plan | null
  /** Null unless `apply` was asked and the plan had work. */
  result: SyncResult | null
  /** Images built from the challenges' Dockerfiles (with `build`), in folder order. */
  built: { key: string; image: string; id: string }[]
}

/**
 * Plan (and with `apply`, sync) a folder of challenges against a game: what `pennant challenges
 * plan|sync` does and what the admin screens' folder upload does on the server, through the same
 * edit API calls. Files are read and checked before the server is asked anything; `log` gets
 * one line per challenge applied. API failures outside a challenge's own steps throw `ApiError`.
 */
export async function runFolder(
  root: string,
  opts: {
    api: Api
    game: number
    prune?: boolean
    apply?: boolean
    /**
     * With `apply`: first build each container challenge's image from the `Dockerfile` in its
     * folder on the server's engine. A failed build stops the run before anything is applied.
     */
    build?: boolean
    log?: (line: string) => void
    /** Told the files' diagnostics before the server is asked anything. */
    onRead?: (diagnostics: Diagnostic[]) => void
    /** Told the plan before it is applied. */
    onPlan?: (p: Plan) => void
    /** File names in messages are relative to this folder (default: the working folder). */
    base?: string
  },
): Promise<FolderRun> {
  const tree = readTree(root, opts.base)
  const diagnostics = [...tree.diagnostics].sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line)
  const read = tree.specs.length
  opts.onRead?.(diagnostics)
  if (read === 0 || diagnostics.some((d) => d.severity === 'error'))
    return { diagnostics, read, plan: null, result: null, built: [] }
  // Handouts are read and hashed before the server is asked.
  const desired: DesiredChallenge[] = tree.specs.map((s) => ({
    ...s,
    attachment: resolveAttachment(s.attachment),
  }))
  const server = await opts.api.allChallenges(opts.game)
  const p = plan(desired, server, { prune: opts.prune })
  opts.onPlan?.(p)
  const log = opts.log ?? (() => {})
  const built: FolderRun['built'] = []
  if (opts.apply && opts.build) {
    for (const s of tree.specs) {
      const dir = tree.dirs.get(s.key)
      if (!s.container || !dir || !existsSync(join(dir, 'Dockerfile'))) continue
      const image = await opts.api.buildImage(s.container.image, tarFolder(dir))
      log(
        `built ${s.container.image} (${image.id.replace(/^sha256:/, '').slice(0, 12)}) from ${s.key}/Dockerfile`,
      )
      built.push({ key: s.key, image: s.container.image, id: image.id })
    }
  }
  if (!opts.apply || !p.hasWork) return { diagnostics, read, plan: p, result: null, built }
  const result = await applyPlan(opts.api, opts.game, p, server, desired, log)
  return { diagnostics, read, plan: p, result, built }
}
