// Builds the server into dist/ (one ES module plus a chunk per lazily imported part), so
// `npm start` runs plain JavaScript instead of compiling TypeScript at every start.
// `--if-stale` builds only when dist/main.js is missing or older than a source or this script.
// `--outdir <dir>` builds there instead of dist/ (a test run's own build, beside a running dist/);
// it must lie inside server/ so the bundle still finds node_modules.
// Besides the code, the output holds every file the server reads at run time (RUNTIME_FILES), so
// the folder alone is what a start needs; the server refuses to start when one is missing.
import { cpSync, existsSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newest } from '../../scripts/newest.mjs'

const here = fileURLToPath(import.meta.url)
const server = path.resolve(path.dirname(here), '..')
const outdirAt = process.argv.indexOf('--outdir')
const out = outdirAt > 0 ? path.resolve(process.argv[outdirAt + 1]) : path.join(server, 'dist')
if (path.relative(server, out).startsWith('..')) {
  console.error(`--outdir must be inside ${server} (the bundle loads its dependencies from node_modules)`)
  process.exit(2)
}
const entry = path.join(out, 'main.js')

/** Source (in server/) → place in the output; must match RUNTIME in src/paths.ts. */
const RUNTIME_FILES = [
  ['src/http/locales', 'locales'],
  ['src/db/migrations', 'migrations'],
  ['src/db/pglite-worker.js', 'pglite-worker.js'],
  ['assets', 'assets'],
]

/**
 * Dependencies bundled into the build instead of loaded from node_modules at start. TypeBox is
 * ~700 small ES modules: Node resolved and compiled each at every start (~0.4 s of CPU, more than
 * any other package), while the bundle keeps only the part the server uses, in one file.
 */
const BUNDLED = ['typebox']

/** An esbuild plugin: every bare import (a package) stays external, except the ones named. */
function externalExcept(bundled) {
  return {
    name: 'external-except',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path
          .split('/')
          .slice(0, args.path.startsWith('@') ? 2 : 1)
          .join('/')
        return bundled.includes(name) ? undefined : { path: args.path, external: true }
      })
    },
  }
}

const sources = Math.max(
  newest(path.join(server, 'src')),
  newest(path.join(server, 'assets')),
  statSync(here).mtimeMs,
  statSync(path.join(server, 'package.json')).mtimeMs,
)
if (!process.argv.includes('--if-stale') || !existsSync(entry) || statSync(entry).mtimeMs < sources) {
  const started = Date.now()
  // Loaded only to build: a start with a fresh build does not pay for esbuild.
  const { build } = await import('esbuild')
  // dist/ is not cleared first: a server already running from it may still load a lazy chunk
  // of its own build (chunk names carry a content hash, so builds do not overwrite each other).
  await build({
    // The proxy's own process (forked by the server) is a second entry, dist/proxy-child.js.
    entryPoints: {
      main: path.join(server, 'src/main.ts'),
      'proxy-child': path.join(server, 'src/modules/proxy/proxy-child.ts'),
    },
    outdir: out,
    bundle: true,
    // Dynamic imports (the Docker client, PGlite or pg, image code) stay separate chunks, so
    // what a start does not need is never read.
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Dependencies load from node_modules as usual, except those in BUNDLED (see there).
    plugins: [externalExcept(BUNDLED)],
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
  })
  for (const [from, to] of RUNTIME_FILES)
    cpSync(path.join(server, from), path.join(out, to), { recursive: true, force: true })
  console.log(`Server built into ${path.relative(server, out)}/ in ${Date.now() - started} ms.`)
}
