import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AppError, fail } from '../../http/errors.ts'
import { errors, IdParams, Nullable } from '../../http/schema.ts'
import { readUpload } from '../../http/upload.ts'
import { type ArchiveLimits, openZip } from '../assets/zip-reader.ts'

/** A challenge folder as a ZIP: small enough to read in one request, checked before unpacking. */
const LIMITS: ArchiveLimits = {
  maxArchiveBytes: 32 * 1024 * 1024,
  maxEntries: 5_000,
  maxUnpackedBytes: 256 * 1024 * 1024,
  maxManifestBytes: 0,
}

const Change = Type.Object({ field: Type.String(), from: Type.Unknown(), to: Type.Unknown() })
const Item = Type.Object({
  /** `create`, `change`, `unchanged`, `remove` (with prune) or `server-only`. */
  action: Type.String(),
  /** The challenge's folder; null for a server challenge tied to none. */
  key: Nullable(Type.String()),
  /** The server challenge; null for one still to create. */
  id: Nullable(Type.Integer()),
  title: Type.String(),
  type: Nullable(Type.String()),
  category: Nullable(Type.String()),
  changes: Type.Array(Change),
  /** The type differs: the challenge must be deleted and created again. */
  recreate: Type.Boolean(),
  /** Matched by title, not yet tied to its folder. */
  adopted: Type.Boolean(),
})
const Diagnostic = Type.Object({
  severity: Type.String(),
  file: Type.String(),
  line: Type.Integer(),
  field: Type.String(),
  message: Type.String(),
})
const FolderPlan = Type.Object({
  diagnostics: Type.Array(Diagnostic),
  /** False when a file had an error or the archive held no challenge file: nothing was planned. */
  planned: Type.Boolean(),
  items: Type.Array(Item),
  notes: Type.Array(Type.String()),
  hasWork: Type.Boolean(),
  /** The plan as `pennant challenges plan` prints it. */
  text: Type.String(),
  /** With `apply`: what was done, one line per challenge, and the counts; else null and []. */
  applied: Nullable(Type.Integer()),
  failed: Nullable(Type.Integer()),
  log: Type.Array(Type.String()),
})

/** Entry names become paths only when they stay inside the folder. */
function safeEntryPath(name: string): string | null {
  if (name.includes('\\') || name.startsWith('/') || name.includes('\0')) return null
  const parts = name.split('/').filter((p) => p !== '' && p !== '.')
  if (parts.length === 0 || parts.includes('..')) return null
  return parts.join('/')
}

/**
 * Unpacks the uploaded ZIP under `dir/<name>` and returns the folder to read: the archive's one
 * top-level folder when it has nothing else (a zipped `challenges/` folder), else `dir/<name>`.
 * Either way the keys come out as `pennant` makes them for that folder.
 */
async function unpack(bytes: Buffer, dir: string, name: string): Promise<string> {
  const file = path.join(dir, 'upload.zip')
  await writeFile(file, bytes)
  const zip = await openZip(file, LIMITS)
  const root = path.join(dir, name)
  const tops = new Set<string>()
  try {
    for (const entry of zip.sizes.keys()) {
      const rel = safeEntryPath(entry)
      if (rel === null) throw fail('Transfer_NotAnArchive')
      tops.add(entry.includes('/') ? `${rel.split('/')[0]}/` : rel)
      if (entry.endsWith('/')) {
        await mkdir(path.join(root, rel), { recursive: true })
        continue
      }
      const target = path.join(root, rel)
      await mkdir(path.dirname(target), { recursive: true })
      await pipeline(zip.stream(entry), createWriteStream(target, { flags: 'wx' }))
    }
  } finally {
    await zip.close()
    await rm(file, { force: true })
  }
  const [only] = tops
  return tops.size === 1 && only!.endsWith('/') ? path.join(root, only!.slice(0, -1)) : root
}

/**
 * The edit API calls, made in process for the caller: the same route checks, with the caller's
 * own credentials (the session cookie and its XSRF echo, or the bearer token) passed on.
 */
function inProcessFetch(app: FastifyInstance, request: FastifyRequest): typeof fetch {
  const pass: Record<string, string> = {}
  for (const h of ['cookie', 'x-xsrf-token', 'authorization', 'accept-language'] as const) {
    const v = request.headers[h]
    if (typeof v === 'string') pass[h] = v
  }
  return async (input, init) => {
    const url = new URL(String(input))
    const headers = new Headers(init?.headers)
    headers.delete('authorization')
    for (const [k, v] of Object.entries(pass)) headers.set(k, v)
    let payload: Buffer | undefined
    if (init?.body instanceof FormData) {
      const req = new Request(url, { method: init.method, body: init.body })
      headers.set('content-type', req.headers.get('content-type')!)
      payload = Buffer.from(await req.arrayBuffer())
    } else if (typeof init?.body === 'string') payload = Buffer.from(init.body)
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'GET',
      url: url.pathname + url.search,
      headers: Object.fromEntries(headers),
      payload,
      remoteAddress: request.ip,
    })
    return new Response(res.statusCode === 204 ? null : new Uint8Array(res.rawPayload), {
      status: res.statusCode,
    })
  }
}

/** Challenges as code in the admin screens: a folder uploaded as a ZIP, planned and applied. */
export const editFolderRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/games/:id/challenges/folder',
    {
      config: { auth: 'admin' },
      schema: {
        summary:
          'Plan a folder of challenge.yml files (a ZIP in multipart field "file") against the game, and with apply=true sync it, as `pennant challenges plan|sync` does',
        tags: ['Edit'],
        consumes: ['multipart/form-data'],
        params: IdParams,
        querystring: Type.Object({
          apply: Type.Optional(Type.Boolean()),
          prune: Type.Optional(Type.Boolean()),
        }),
        response: { 200: FolderPlan, ...errors(400, 401, 403, 404, 413) },
      },
    },
    async (request) => {
      const game = request.params.id
      await app.deps.services.editGames.get(game) // 404 before the upload is read
      const upload = await readUpload(request, LIMITS.maxArchiveBytes)
      const name = path.basename(upload.filename).replace(/\.zip$/i, '') || 'challenges'
      const dir = await mkdtemp(path.join(app.deps.config.dataDir, `folder-${randomUUID()}-`))
      try {
        const root = await unpack(upload.bytes, dir, name)
        // The cli's own reader, planner and sync: one implementation for both.
        const { runFolder, createApi, ApiError, formatPlan } = await import('./folder-cli.ts')
        const log: string[] = []
        const api = createApi({ url: 'http://pennant.local', token: '', fetch: inProcessFetch(app, request) })
        let run: Awaited<ReturnType<typeof runFolder>>
        try {
          run = await runFolder(root, {
            api,
            game,
            prune: request.query.prune,
            apply: request.query.apply,
            log: (l) => log.push(l),
            base: path.dirname(root),
          })
        } catch (err) {
          if (err instanceof ApiError)
            throw new AppError('Custom', err.status >= 400 ? err.status : 502, err.message)
          throw err
        }
        const p = run.plan
        return {
          diagnostics: run.diagnostics,
          planned: p !== null,
          items: (p?.items ?? []).map((i) => ({
            action: i.action,
            key: i.key,
            id: 'id' in i ? i.id : null,
            title: i.title,
            type: i.action === 'create' ? i.desired.type : null,
            category: i.action === 'create' ? i.desired.category : null,
            changes: i.action === 'change' ? i.changes : [],
            recreate: i.action === 'change' && i.recreate,
            adopted: i.action === 'change' && i.adopted,
          })),
          notes: p?.notes ?? [],
          hasWork: p?.hasWork ?? false,
          text: p ? formatPlan(p) : '',
          applied: run.result?.applied ?? null,
          failed: run.result?.failed ?? null,
          log,
        }
      } finally {
        await rm(dir, { recursive: true, force: true })
      }
    },
  )
}
