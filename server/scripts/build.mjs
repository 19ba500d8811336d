// Builds the server into dist/ (one ES module plus a chunk per lazily imported part), so
// `npm start` runs plain JavaScript instead of compiling TypeScript at every start.
// `--if-stale` builds only when dist/main.js is missing or older than a source or this script.
// `--outdir <dir>` builds there instead of dist/ (a test run's own build, beside a running dist/);
// it must lie inside server/ so the bundle still finds node_modules.
// Besides the code, the output holds every file the server reads at run time (RUNTIME_FILES), so
// the folder alone is what a start needs; the server refuses to start when one is missing.
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
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
 * Dependencies left in node_modules, loaded from there at run time; every other package is
 * bundled into the build. Node resolved, read and compiled each package's files at every start
 * (TypeBox alone is ~700 ES modules, ~0.4 s of CPU; fastify, pg, pino and the rest ~0.3 s more);
 * the bundle is a few files. Left out: packages with native code or files they read beside
 * themselves (PGlite's WebAssembly, argon2, sharp, the WebSocket accelerators), the Docker
 * client (native extras through ssh2), and the build tools.
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@node-rs/argon2',
  'sharp',
  'bufferutil',
  'utf-8-validate',
  'dockerode',
  'esbuild',
  'tsx',
]

/** An esbuild plugin: the packages named stay external (imported from node_modules at run time). */
function externalOnly(external) {
  return {
    name: 'external-only',
    setup(b) {
      b.onResolve({ filter: /^[^./]/ }, (args) => {
        const name = args.path
          .split('/')
          .slice(0, args.path.startsWith('@') ? 2 : 1)
          .join('/')
        return external.includes(name) ? { path: args.path, external: true } : undefined
      })
    },
  }
}

/**
 * Rewrites the few characters beyond ASCII left in an output file (esbuild escapes them in
 * strings, not in the comments it keeps) as `\\uXXXX`. One such character made V8 hold the whole
 * file's source as two bytes per character: 6.6 MiB instead of 3.3 for main.js, for as long as
 * the server runs, and a slower decode at every start. An escape means the same character
 * wherever esbuild could have left one (comment, string, template, regular expression).
 */
function asciiOnly(file) {
  const text = readFileSync(file, 'utf8')
  if (!/[^\0-\x7f]/.test(text)) return
  const escaped = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
  writeFileSync(file, text.replace(/[^\0-\x7f]/g, escaped))
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
  const built = await build({
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
    // Every dependency is bundled except those in EXTERNAL (see there).
    plugins: [externalOnly(EXTERNAL)],
    // Bundled CommonJS packages call require() for Node's own modules: an ES module has none.
    banner: {
      js: "import { createRequire as __pennantCreateRequire } from 'node:module'; const require = __pennantCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    chunkNames: 'chunks/[name]-[hash]',
    logLevel: 'warning',
    metafile: true,
  })
  for (const file of Object.keys(built.metafile.outputs)) if (file.endsWith('.js')) asciiOnly(file)
  for (const [from, to] of RUNTIME_FILES)
    cpSync(path.join(server, from), path.join(out, to), { recursive: true, force: true })
  console.log(`Server built into ${path.relative(server, out)}/ in ${Date.now() - started} ms.`)
}
