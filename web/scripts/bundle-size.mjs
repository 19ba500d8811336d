// Prints the gzip size of each route's first load: the JS and CSS a browser fetches before the
// page is usable, read from the build manifest (run `npm run build -w web` first).
// A route's first load = the entry and everything it always loads at start (toasts; the English
// common strings are part of it) + the route's layouts and page + their static imports + chunks the page shows at
// once (Markdown). Shared chunks count once per route.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import { routeModules, routes } from './first-loads.mjs'

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist')
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'))

/** Loaded on every first visit, whatever the route. */
const always = Object.keys(manifest).filter((k) => manifest[k].isEntry)

const gz = new Map()
function gzipSize(file) {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length)
  return gz.get(file)
}

/** Every file a module pulls in statically (itself, its static imports, their CSS). */
function collect(key, files, seen = new Set()) {
  if (seen.has(key)) return
  seen.add(key)
  const entry = manifest[key]
  // A module nothing imports yet (e.g. Markdown before a page uses it) is simply not counted.
  if (!entry) return
  files.add(entry.file)
  for (const css of entry.css ?? []) files.add(css)
  for (const imported of entry.imports ?? []) collect(imported, files, seen)
}

const kb = (bytes) => (bytes / 1024).toFixed(1).padStart(6)
let failed = false
console.log('route                                         JS KB  CSS KB  total KB  budget')
for (const [route, modules, budget] of routes) {
  const files = new Set()
  for (const key of [...always, ...routeModules(modules)]) collect(key, files)
  let js = 0
  let css = 0
  for (const file of files) {
    if (file.endsWith('.css')) css += gzipSize(file)
    else if (file.endsWith('.js')) js += gzipSize(file)
  }
  const total = js + css
  const over = budget && total / 1024 > budget
  failed ||= Boolean(over)
  console.log(
    `${route.padEnd(44)} ${kb(js)}  ${kb(css)}  ${kb(total)}    ${budget ? `${budget}${over ? ' OVER' : ''}` : ''}`,
  )
}
console.log('\nsizes are gzip -9 of the built files, in KiB; budgets from the issues')
if (failed && process.argv.includes('--check')) process.exit(1)
