// Builds the web client: the API types, the bundle (Vite), then the precompressed copies.
// The output is whole or absent, never half done: everything is built into a folder beside it
// and renamed into place once complete, with a marker file written last. A start interrupted
// mid-build (Ctrl-C, a killed process) leaves the previous build, or none, and the next
// `--if-stale` run builds again (a folder without the marker counts as not built).
//   --if-stale     build only when the output lacks the marker or is older than the sources
//   --quiet        progress on one line on a terminal (and nothing else unless something fails)
//   --outdir <d>   build there instead of web/dist (inside web/, so Vite keeps its root)
// PENNANT_WEB_BUILD_INTERRUPT=after-vite kills the build between the bundle and the compression,
// as an interrupted first start would (for the test that proves the next start repairs it).
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { newest } from '../../scripts/newest.mjs'
import { compress } from './compress.mjs'

const require = createRequire(import.meta.url)
const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const args = process.argv.slice(2)
const outdirAt = args.indexOf('--outdir')
const out = outdirAt >= 0 ? path.resolve(args[outdirAt + 1]) : path.join(web, 'dist')
if (path.relative(web, out).startsWith('..')) {
  console.error(`--outdir must be inside ${web}`)
  process.exit(2)
}
const quiet = args.includes('--quiet')
/** Written last into a complete build; its time is the build's. */
const MARKER = '.build-complete'

const marker = path.join(out, MARKER)
const sources = Math.max(
  newest(path.join(web, 'src')),
  newest(path.join(web, 'public')),
  statSync(path.join(web, 'index.html')).mtimeMs,
  statSync(path.join(web, 'vite.config.ts')).mtimeMs,
)
if (args.includes('--if-stale') && existsSync(marker) && statSync(marker).mtimeMs >= sources) process.exit(0)

const started = Date.now()
const parent = path.dirname(out)
const base = path.basename(out)
// Leftovers of an interrupted build (ours or an earlier one's) go first.
mkdirSync(parent, { recursive: true })
for (const name of readdirSync(parent))
  if (name.startsWith(`${base}.building-`) || name.startsWith(`${base}.old-`))
    rmSync(path.join(parent, name), { recursive: true, force: true })
const building = path.join(parent, `${base}.building-${process.pid}`)

// On a terminal, one line that moves; elsewhere (a log file, CI) a line at the start and the end.
const tty = quiet && process.stdout.isTTY
let step = 'API types'
const line = () =>
  `Building the web client (first start, or its sources changed): ${step}… ${Math.round((Date.now() - started) / 1000)} s`
const ticker = tty ? setInterval(() => process.stdout.write(`\r\x1b[K${line()}`), 1000) : null
if (tty) process.stdout.write(line())
else if (quiet) console.log('Building the web client (first start, or its sources changed)…')

try {
  await run(process.execPath, [path.join(web, 'scripts/gen-api.mjs')])
  step = 'bundling'
  // In a process of its own with its output piped: Vite's progress would redraw our line.
  const vite = path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js')
  await run(process.execPath, [
    vite,
    'build',
    '--outDir',
    building,
    '--emptyOutDir',
    '--logLevel',
    quiet ? 'warn' : 'info',
  ])
  if (process.env.PENNANT_WEB_BUILD_INTERRUPT === 'after-vite') process.kill(process.pid, 'SIGKILL')
  step = 'compressing'
  const sizes = compress(path.join(building, 'static'))
  if (!quiet) console.log(`compressed static files: ${sizes.before} KiB → ${sizes.after} KiB (brotli)`)
  writeFileSync(path.join(building, MARKER), `${new Date().toISOString()}\n`)
  // The swap: two renames; a server reading the old folder keeps its open files.
  const old = path.join(parent, `${base}.old-${process.pid}`)
  if (existsSync(out)) renameSync(out, old)
  renameSync(building, out)
  rmSync(old, { recursive: true, force: true })
} catch (err) {
  if (ticker) clearInterval(ticker)
  if (tty) process.stdout.write('\n')
  rmSync(building, { recursive: true, force: true })
  console.error(err instanceof Error ? err.message : err)
  process.exit(1)
}
if (ticker) clearInterval(ticker)
const done = `Web client built in ${Math.round((Date.now() - started) / 1000)} s.`
process.stdout.write(tty ? `\r\x1b[K${done}\n` : `${done}\n`)

/** Runs a step; its output is shown only when it fails (or when not quiet). */
function run(command, argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { cwd: web, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit' })
    let output = ''
    child.stdout?.on('data', (c) => (output += c))
    child.stderr?.on('data', (c) => (output += c))
    child.on('error', reject)
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${path.basename(argv[0])} failed (${code}):\n${output}`)),
    )
  })
}
