import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { CULTURES, DEFAULT_CULTURE } from './http/culture.ts'

const file = fileURLToPath(import.meta.url)
/** True when this runs from the sources (tsx: tests, `npm run dev`), false in the esbuild bundle. */
export const FROM_SOURCES = file.endsWith('.ts')

/**
 * The build's output folder (`server/dist`, or the folder `build.mjs --outdir` wrote): this code
 * sits in its `main.js`, in its `proxy-child.js`, or in a shared chunk under `chunks/`.
 */
const buildDir = FROM_SOURCES
  ? null
  : path.basename(path.dirname(file)) === 'chunks'
    ? path.dirname(path.dirname(file))
    : path.dirname(file)

/**
 * The server workspace's folder (`server/`): this file's parent when the sources run
 * (`src/paths.ts`), the output folder's parent when the build runs (`dist/main.js`).
 */
export const serverDir = FROM_SOURCES ? path.resolve(path.dirname(file), '..') : path.dirname(buildDir!)

/**
 * Every file the server reads at run time besides its code and its dependencies. From the
 * sources they are where they are kept; the build (`scripts/build.mjs`) copies each one into its
 * output folder, so `dist/` is all a start needs. `checkRuntimeFiles()` checks them at start.
 */
export const RUNTIME = buildDir
  ? {
      locales: path.join(buildDir, 'locales'),
      migrations: path.join(buildDir, 'migrations'),
      pgliteWorker: path.join(buildDir, 'pglite-worker.js'),
      assets: path.join(buildDir, 'assets'),
      proxyChild: path.join(buildDir, 'proxy-child.js'),
    }
  : {
      locales: path.join(serverDir, 'src/http/locales'),
      migrations: path.join(serverDir, 'src/db/migrations'),
      pgliteWorker: path.join(serverDir, 'src/db/pglite-worker.js'),
      assets: path.join(serverDir, 'assets'),
      proxyChild: path.join(serverDir, 'src/modules/proxy/proxy-child.ts'),
    }

/** The run-time files that are missing, as paths; empty when all are there. */
export function missingRuntimeFiles(runtime: typeof RUNTIME = RUNTIME): string[] {
  const wanted = [
    runtime.pgliteWorker,
    runtime.proxyChild,
    path.join(runtime.assets, 'favicon.webp'),
    path.join(runtime.assets, 'tunnel.mjs'),
    // English is the catalogue in the code; every other culture has its title file.
    ...CULTURES.filter((c) => c !== DEFAULT_CULTURE).map((c) => path.join(runtime.locales, `${c}.json`)),
  ]
  const journal = path.join(runtime.migrations, 'meta/_journal.json')
  wanted.push(journal)
  try {
    const { entries } = JSON.parse(readFileSync(journal, 'utf8')) as { entries: { tag: string }[] }
    for (const entry of entries) wanted.push(path.join(runtime.migrations, `${entry.tag}.sql`))
  } catch {
    // reported below as missing (or unreadable)
  }
  return wanted.filter((f) => !existsSync(f))
}

/**
 * Stops the start when a run-time file is missing (a build that left one out, an image that
 * did not copy it), instead of running without it: without the title files every error would
 * silently come back in English.
 */
export function checkRuntimeFiles(runtime: typeof RUNTIME = RUNTIME): void {
  const missing = missingRuntimeFiles(runtime)
  if (missing.length)
    throw new Error(
      `the server cannot start: ${missing.length} file(s) it reads at run time are missing` +
        `${FROM_SOURCES ? '' : ' from its build (rebuild with `npm run build -w server`)'}:\n` +
        missing.map((f) => `  ${f}`).join('\n'),
    )
}
