import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { CULTURES, DEFAULT_CULTURE } from './http/culture.ts'
import { FROM_SOURCES, RUNTIME } from './paths.ts'

// The start-up check of the run-time files `paths.ts` names: kept out of `paths.ts`, which the
// lowest layers (config, database) read, since it needs the http layer's culture list.

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
